import { describe, expect, it } from "vitest";
import { type ApiResult, signedUpClient, TestClient } from "../support/client";

/**
 * The colour theme (docs/ui.md, "Themes"): POST /theme stores the choice in
 * the `theme` cookie and sends the browser back; the root loader renders it
 * as <html data-theme> so the page never flashes the other theme.
 */

let ip = 0;
const browser = () => new TestClient(`10.93.0.${++ip}`);

/** The theme form as a browser without JavaScript posts it. */
const postTheme = (client: TestClient, fields: Record<string, string>, path = "/theme") =>
  client.call("POST", path, {
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });

const themeSetCookie = (res: ApiResult) => res.headers.getSetCookie().find((c) => c.startsWith("theme="));
const htmlTag = (res: ApiResult) => /<html[^>]*>/.exec(res.text)?.[0] ?? "";
const colorSchemeMeta = (res: ApiResult) => /<meta name="color-scheme" content="([^"]*)"/.exec(res.text)?.[1];

describe("POST /theme", () => {
  it("stores light, dark or system in a year-long cookie and goes back to the page it came from", async () => {
    const client = browser();
    for (const theme of ["light", "dark", "system"]) {
      const res = await postTheme(client, { theme, redirectTo: "/pricing?plan=pro#faq" });
      expect(res.status, theme).toBe(302);
      expect(res.headers.get("Location"), theme).toBe("/pricing?plan=pro#faq");
      const cookie = themeSetCookie(res);
      expect(cookie, theme).toBeDefined();
      expect(cookie).toMatch(new RegExp(`^theme=${theme}; Path=/; Max-Age=31536000; SameSite=Lax`));
      expect(client.jar.get("theme")).toBe(theme);
    }
  });

  it("never redirects off the app: an absolute or protocol-relative redirectTo goes to /", async () => {
    const client = browser();
    for (const redirectTo of ["https://evil.example/", "//evil.example", "/\\evil.example", "/\t/evil.example", "javascript:alert(1)", ""]) {
      const res = await postTheme(client, { theme: "dark", redirectTo });
      expect(res.status, JSON.stringify(redirectTo)).toBe(302);
      expect(res.headers.get("Location"), JSON.stringify(redirectTo)).toBe("/");
      expect(themeSetCookie(res)).toMatch(/^theme=dark;/);
    }
  });

  it("answers 400 to a theme that is not system, light or dark, and leaves the cookie alone", async () => {
    const client = browser();
    await postTheme(client, { theme: "dark", redirectTo: "/" });
    for (const theme of ["sepia", "", "DARK", "dark; Path=/admin"]) {
      const res = await postTheme(client, { theme, redirectTo: "/" });
      expect(res.status, theme).toBe(400);
      expect(themeSetCookie(res), theme).toBeUndefined();
    }
    expect((await postTheme(client, { redirectTo: "/" })).status).toBe(400);
    expect(client.jar.get("theme")).toBe("dark");
  });

  it("refuses a post from another site (403), like every form", async () => {
    const client = browser();
    const res = await client.call("POST", "/theme", {
      body: new URLSearchParams({ theme: "dark", redirectTo: "/" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect(themeSetCookie(res)).toBeUndefined();
  });

  it("answers the toggle's fetcher (a .data request) with the theme and the cookie, without a redirect", async () => {
    const client = browser();
    const res = await postTheme(client, { theme: "dark", via: "fetcher", redirectTo: "/pricing" }, "/theme.data");
    expect(res.status).toBe(200);
    expect(res.headers.get("Location")).toBeNull();
    expect(themeSetCookie(res)).toMatch(/^theme=dark;/);
    expect(res.text).toContain("dark");
  });
});

describe("the rendered theme", () => {
  it("is on <html> when the cookie says light or dark, and absent for system (CSS follows the device)", async () => {
    const client = browser();
    const none = await client.get("/sign-in");
    expect(htmlTag(none)).not.toContain("data-theme");
    expect(colorSchemeMeta(none)).toBe("light dark");

    await postTheme(client, { theme: "dark", redirectTo: "/sign-in" });
    const dark = await client.get("/sign-in");
    expect(htmlTag(dark)).toContain('data-theme="dark"');
    expect(colorSchemeMeta(dark)).toBe("dark");
    // The public header's toggle shows the choice as pressed, with JavaScript off.
    const pricing = await client.get("/pricing");
    expect(htmlTag(pricing)).toContain('data-theme="dark"');
    expect(pricing.text).toMatch(/value="dark" aria-pressed="true">Dark<\/button>/);
    expect(pricing.text).toMatch(/value="system" aria-pressed="false">System<\/button>/);
    expect(pricing.text).toContain('name="redirectTo" value="/pricing"');

    await postTheme(client, { theme: "light", redirectTo: "/" });
    expect(htmlTag(await client.get("/sign-in"))).toContain('data-theme="light"');

    await postTheme(client, { theme: "system", redirectTo: "/" });
    const system = await client.get("/sign-in");
    expect(htmlTag(system)).not.toContain("data-theme");
    expect(colorSchemeMeta(system)).toBe("light dark");
  });

  it("reads an unknown cookie value as system", async () => {
    const client = browser();
    client.jar.set("theme", "%22%3E%3Cscript%3E");
    const res = await client.get("/sign-in");
    expect(htmlTag(res)).not.toContain("data-theme");
    expect(colorSchemeMeta(res)).toBe("light dark");
  });

  it("shows the toggle in the signed-in shell, posting back to the current page", async () => {
    const { client } = await signedUpClient();
    await postTheme(client, { theme: "dark", redirectTo: "/projects" });
    const res = await client.get("/projects?status=draft");
    expect(res.status).toBe(200);
    expect(htmlTag(res)).toContain('data-theme="dark"');
    expect(res.text).toContain('action="/theme"');
    expect(res.text).toContain('name="redirectTo" value="/projects?status=draft"');
    expect(res.text).toMatch(/value="dark" aria-pressed="true">Dark<\/button>/);
  });
});
