import { describe, expect, inject, it } from "vitest";
import { newPage, useBrowser } from "./browser";

/**
 * A diagram in a PRD is text anyone who edits the PRD wrote. In the rich
 * editor's live preview, a label such as `A["<img src=x onerror=alert(1)>"]`
 * must be drawn as text: no <img> in the page, no handler, and so nothing
 * for the Content-Security-Policy to stop (before, Mermaid put the <img> in
 * the page and only the CSP refused its handler). Unit side:
 * tests/unit/mermaid-browser.test.ts.
 */

const baseURL = inject("baseUrl");
const chromium = useBrowser();

declare global {
  interface Window {
    reportLabelViolation?: (text: string) => void;
    __labelHandlerRan?: boolean;
  }
}

const PRD = [
  "# Hostile diagram",
  "",
  "## Flow",
  "",
  "```mermaid",
  "flowchart TD",
  '  A["<img src=x onerror=window.__labelHandlerRan=true> Label"] --> B["Next step"]',
  "```",
  "",
].join("\n");

describe("Mermaid labels in the browser (JavaScript on)", () => {
  it("draws a hostile label as text in the editor's preview: no <img>, no handler, no CSP violation", async () => {
    const { context, page, errors } = await newPage(chromium.browser, { javaScriptEnabled: true, baseURL });
    const violations: string[] = [];
    await context.exposeFunction("reportLabelViolation", (text: string) => violations.push(text));
    await context.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => window.reportLabelViolation?.(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
    });
    await page.goto("/sign-up");
    await page.getByLabel("Full name").fill("Lena Label");
    await page.getByLabel("Work e-mail").fill(`mermaid-labels-${Date.now()}@example.com`);
    await page.getByLabel("Password").fill("Label-Pass-7");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Set up your workspace" }).waitFor();
    await page.getByRole("button", { name: "Skip for now" }).click();
    await page.getByRole("heading", { name: /Welcome to PRD Studio/ }).waitFor();
    await page.goto("/projects/new");
    await page.getByLabel("Name").fill("Hostile diagram");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("heading", { level: 1, name: "Hostile diagram" }).waitFor();
    await page.getByLabel("Content (Markdown)").fill(PRD);
    await page.getByRole("button", { name: "Save PRD" }).click();

    const editor = page.getByRole("textbox", { name: "PRD document" });
    const diagram = editor.locator(".mermaid-preview .diagram");
    await diagram.locator("svg").waitFor({ timeout: 30_000 });
    const html = await diagram.innerHTML();
    expect(html).not.toMatch(/<img|<foreignObject|\son[a-z]+=/i);
    expect(await diagram.locator("img, foreignObject").count()).toBe(0);
    expect(await diagram.textContent()).toContain("Label");
    expect(await diagram.textContent()).toContain("Next step");
    expect(await page.evaluate(() => window.__labelHandlerRan === true)).toBe(false);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
