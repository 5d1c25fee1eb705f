import type { BrowserContext } from "playwright-core";

/**
 * Plays a service's OAuth consent screen in the browser, as a person
 * clicking "Allow" would: the settings page's connect form is answered by the
 * app with a redirect to the service's authorize URL; that redirect is
 * replaced by the one the service sends back (`redirect_uri?code&state`).
 * Playwright does not route the hop a redirect makes, so the redirect is
 * caught on the form post that sends it. `approve` is the stand-in's own
 * consent check, which issues the code. Returns how many consents were asked.
 */
export async function playOAuthConsent(
  context: BrowserContext,
  options: { formPath: string; authorizeUrl: string; approve: (authorizeUrl: string) => { code: string; state: string; redirectUri?: string } },
) {
  let asked = 0;
  await context.route(
    (url) => url.pathname === options.formPath,
    async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      const response = await route.fetch({ maxRedirects: 0 });
      const location = response.headers().location ?? "";
      if (!location.startsWith(`${options.authorizeUrl}?`)) return route.fulfill({ response });
      asked++;
      const { code, state, redirectUri } = options.approve(location);
      const back = new URL(redirectUri ?? new URL(location).searchParams.get("redirect_uri")!);
      back.search = new URLSearchParams({ code, state }).toString();
      await route.fulfill({ response, headers: { ...response.headers(), location: back.toString() } });
    },
  );
  return () => asked;
}
