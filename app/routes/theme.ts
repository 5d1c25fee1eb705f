import { type ActionFunctionArgs, data, redirect } from "@remix-run/node";
import { assertSameOrigin } from "~/http/csrf.server";
import { themeCookie } from "~/http/theme.server";
import { safeRedirect } from "~/http/ui/ui.server";
import { AppError } from "~/domain/errors";
import { themeSchema } from "~/utils/theme";

/**
 * POST /theme: remembers the colour theme (app/components/theme-toggle.tsx,
 * docs/ui.md) in the `theme` cookie. Open to everyone (public pages have the
 * toggle too); same-origin only, as every form post.
 *
 * - A form post (JavaScript off) is answered with a redirect back to
 *   `redirectTo`, which must be a path of this app (`safeRedirect`: an
 *   absolute or protocol-relative URL goes to "/").
 * - The toggle's fetcher sends `via=fetcher` and gets `{ theme }` instead: it
 *   has already switched the page, and Remix revalidates the loaders.
 * - A value other than system, light or dark is 400 and the cookie is left alone.
 *
 * Nothing is written to the database, so a LiteFS replica answers it itself.
 * A GET (the address typed in) goes home rather than to Remix's "no loader" error.
 */
export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  try {
    assertSameOrigin(request);
  } catch (error) {
    if (error instanceof AppError) throw new Response(error.message, { status: error.status });
    throw error;
  }
  const form = await request.formData();
  const parsed = themeSchema.safeParse(form.get("theme"));
  if (!parsed.success) {
    return new Response("Choose a theme: system, light or dark.", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const headers = { "Set-Cookie": themeCookie(parsed.data) };
  if (form.get("via") === "fetcher") return data({ theme: parsed.data }, { headers });
  return redirect(safeRedirect(form.get("redirectTo"), "/"), { headers });
}
