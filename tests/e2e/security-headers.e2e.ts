import { describe, expect, inject, it } from "vitest";
import { newPage, useBrowser } from "./browser";

/**
 * The Content-Security-Policy in a real browser (docs/security.md, "HTTP
 * headers"): with JavaScript on, pages hydrate and navigate on the client,
 * forms and a fetcher submit, Mermaid draws a diagram — and Chromium reports
 * no violation, so the nonce reached every script Remix emits. A script
 * injected without the nonce is refused, which shows the policy is enforced
 * and that violations would be seen.
 */

const baseURL = inject("baseUrl");
const chromium = useBrowser();

declare global {
  interface Window {
    __sameDocument?: string;
    __injected?: boolean;
    __remixRouter?: unknown;
    reportCspViolation?: (text: string) => void;
  }
}

describe("Content-Security-Policy with JavaScript on", () => {
  it("hydrates, navigates, submits forms and a fetcher and draws Mermaid without a single violation", async () => {
    const { context, page, errors } = await newPage(chromium.browser, { javaScriptEnabled: true, baseURL });
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
    });
    await context.exposeFunction("reportCspViolation", (text: string) => violations.push(`event: ${text}`));
    await context.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) =>
        window.reportCspViolation?.(
          `${e.violatedDirective} ${e.blockedURI} ${e.sample} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} on ${location.pathname}`,
        ),
      );
    });
    const hydrated = () => page.waitForFunction(() => Boolean(window.__remixRouter));

    // The page is served with a nonce policy, and hydrates under it.
    const signUp = await page.goto("/sign-up");
    const policy = signUp!.headers()["content-security-policy"];
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    await hydrated();

    // Control: an inline script without the nonce does not run, and the violation is seen.
    const ran = await page.evaluate(async () => {
      const script = document.createElement("script");
      script.textContent = "window.__injected = true";
      document.body.append(script);
      await new Promise((r) => setTimeout(r, 100));
      return window.__injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.some((v) => v.startsWith("event: script-src"))).toBe(true);
    violations.length = 0;

    // Sign up and onboarding: form posts answered in the same document (client-side navigation).
    await page.evaluate(() => (window.__sameDocument = "yes"));
    await page.getByLabel("Full name").fill("Content Policy");
    await page.getByLabel("Work e-mail").fill(`csp-${Date.now()}@example.com`);
    await page.getByLabel("Password").fill("Policy-Pass-7");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Set up your workspace" }).waitFor();
    await page.getByRole("button", { name: "Skip for now" }).click();
    await page.getByRole("heading", { name: /Welcome to PRD Studio/ }).waitFor();
    expect(await page.evaluate(() => window.__sameDocument)).toBe("yes");

    // A project with a PRD written in the editor form.
    await page.goto("/projects/new");
    await hydrated();
    await page.evaluate(() => (window.__sameDocument = "yes"));
    await page.getByLabel("Name").fill("Policy checkout");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("heading", { level: 1, name: "Policy checkout" }).waitFor();
    await page.getByLabel("Content (Markdown)").fill("# Policy checkout\n\n## Problem\nShoppers abandon a 9-step checkout.\n\n## Goals\n- One tap\n");
    await page.getByRole("button", { name: "Save PRD" }).click();
    await page.getByRole("article", { name: "PRD", exact: true }).getByRole("heading", { name: "Problem" }).waitFor();
    expect(await page.evaluate(() => window.__sameDocument)).toBe("yes");

    // Mermaid, loaded on demand, draws a diagram (its SVG brings inline styles).
    await page.getByRole("link", { name: "AI tools" }).click();
    await page.getByRole("link", { name: "Diagrams" }).click();
    await page.getByLabel("Diagram type").selectOption("user_flow");
    await page.getByRole("button", { name: "Draw it" }).click();
    await page.getByTestId("diagram").first().locator(".diagram svg").waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => window.__sameDocument)).toBe("yes");

    // Two more projects make the NPS card due; its answer goes through a fetcher.
    for (const name of ["Policy two", "Policy three"]) {
      const res = await page.request.post("/api/projects", { data: { name }, headers: { Origin: baseURL } });
      expect(res.status()).toBe(201);
    }
    await page.goto("/home");
    await hydrated();
    await page.evaluate(() => (window.__sameDocument = "yes"));
    await page.getByRole("radio", { name: "9", exact: true }).check();
    await page.getByRole("button", { name: "Send feedback" }).click();
    await page.getByText("Thanks for your feedback!").first().waitFor();
    expect(await page.evaluate(() => window.__sameDocument)).toBe("yes");

    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
