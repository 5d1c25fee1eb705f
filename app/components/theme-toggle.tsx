import { useFetcher, useLocation, useRouteLoaderData } from "@remix-run/react";
import { type FormEvent, useId } from "react";
import type { loader as rootLoader } from "~/root";
import { THEME_LABELS, THEMES, type ThemePreference, themeSchema } from "~/utils/theme";

/** Shows `theme` at once: the root element's data-theme, which app.css reads (none for "system"). */
function applyTheme(theme: ThemePreference) {
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

/**
 * "Theme: System / Light / Dark" (docs/ui.md, "Themes"). A plain form posted
 * to /theme, which sets the `theme` cookie and redirects back here, so it
 * works without JavaScript. With JavaScript the page switches at once and a
 * fetcher stores the choice; the root loader then renders it on every page.
 */
export function ThemeToggle({ className }: { className?: string }) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const fetcher = useFetcher<{ theme: ThemePreference }>();
  const location = useLocation();
  const labelId = useId();
  const pending = themeSchema.safeParse(fetcher.formData?.get("theme"));
  const current: ThemePreference = pending.success ? pending.data : (root?.theme ?? "system");

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const chosen = themeSchema.safeParse(submitter instanceof HTMLButtonElement ? submitter.value : null);
    if (!chosen.success) return; // let the browser post the form
    event.preventDefault();
    applyTheme(chosen.data);
    fetcher.submit({ theme: chosen.data, via: "fetcher" }, { method: "post", action: "/theme" });
  }

  return (
    <form method="post" action="/theme" className={className ? `theme-toggle ${className}` : "theme-toggle"} onSubmit={onSubmit}>
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <span id={labelId} className="theme-toggle-label">
        Theme:
      </span>
      <span role="group" aria-labelledby={labelId} className="theme-toggle-options">
        {THEMES.map((theme) => (
          <button key={theme} type="submit" name="theme" value={theme} aria-pressed={current === theme}>
            {THEME_LABELS[theme]}
          </button>
        ))}
      </span>
    </form>
  );
}
