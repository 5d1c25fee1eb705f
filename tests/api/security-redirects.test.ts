import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/http/ui/ui.server";
import { GOOD_PASSWORD, signedUpClient, TestClient } from "../support/client";

/**
 * Finding 6: `redirectTo=/\t/evil.example` passed the check and browsers
 * landed on evil.example. The target is now resolved by the WHATWG URL
 * parser, as a browser resolves Location, and kept only on our origin.
 */

const HOSTILE = [
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example/path",
  "//evil.example",
  "/\\evil.example",
  "/\\/evil.example",
  "/%09/evil.example/..",
  "https://evil.example/",
  "javascript:alert(1)",
  "\t//evil.example",
  "/ /evil.example",
];

/** Where a browser on the app's origin lands after a redirect to `location`. */
const landing = (location: string) => new URL(location, "https://app.example.com").origin;

describe("the redirect after sign-in", () => {
  it("never leaves the app's origin, however the target is written", () => {
    for (const target of HOSTILE) expect(landing(safeRedirect(target)), JSON.stringify(target)).toBe("https://app.example.com");
    expect(safeRedirect("/projects?tab=mine#top")).toBe("/projects?tab=mine#top");
    expect(safeRedirect("/marketplace/t1")).toBe("/marketplace/t1");
  });

  it("a sign-in form post with a hostile redirectTo lands at home", async () => {
    const { email } = await signedUpClient();
    const browser = new TestClient("10.91.0.1");
    for (const redirectTo of ["/\t/evil.example", "//evil.example"]) {
      const res = await browser.call("POST", "/sign-in", {
        body: new URLSearchParams({ email, password: GOOD_PASSWORD, redirectTo }),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/home");
      browser.jar.clear();
    }
  });
});
