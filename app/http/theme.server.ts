import { config } from "~/config.server";
import { type ThemePreference, themeSchema } from "~/utils/theme";

/**
 * The `theme` cookie: the person's colour theme (docs/ui.md, "Themes"), read
 * by the root loader on every page so the server renders the chosen theme and
 * nothing flashes. A plain value (system, light or dark), not signed: it
 * grants nothing, and anything else reads as "system".
 */
export const THEME_COOKIE = "theme";
const ONE_YEAR_S = 365 * 24 * 60 * 60;

/** The preference in the request's `theme` cookie; "system" when there is none or it is not one of the three. */
export function readTheme(request: Pick<Request, "headers">): ThemePreference {
  const header = request.headers.get("Cookie");
  if (!header) return "system";
  const match = /(?:^|;\s*)theme=([^;]*)/.exec(header);
  const parsed = themeSchema.safeParse(match?.[1]?.trim());
  return parsed.success ? parsed.data : "system";
}

/** A Set-Cookie value that remembers `theme` for a year. */
export function themeCookie(theme: ThemePreference) {
  const secure = (config().APP_URL ?? "").startsWith("https://") ? "; Secure" : "";
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${ONE_YEAR_S}; SameSite=Lax; HttpOnly${secure}`;
}
