import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { newPage, screenshot, useBrowser } from "./browser";

/**
 * Two tabs edit the same PRD from the same version and save one after the
 * other: the second save is merged with the first (different sections), not
 * refused, with JavaScript off and on (docs/projects.md, "Lost-update protection").
 */

const baseURL = inject("baseUrl");
const chromium = useBrowser();

async function signUp(page: Page, email: string) {
  await page.goto("/sign-up");
  await page.getByLabel("Full name").fill("Grace Merge");
  await page.getByLabel("Work e-mail").fill(email);
  await page.getByLabel("Password").fill("Merge-Pass-7");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Set up your workspace" }).waitFor();
  await page.getByRole("button", { name: "Skip for now" }).click();
  await page.getByRole("heading", { name: /Welcome to PRD Studio/ }).waitFor();
}

const PRD = "# Orbit\n\n## Problem\nPaying takes 9 steps.\n\n## Goals\n- One tap\n";

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? "js" : "nojs";

  describe(`racing saves with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    it("merges a second tab's save of another section instead of refusing it", async () => {
      const { context, page, errors } = await newPage(chromium.browser, { javaScriptEnabled, baseURL });
      await signUp(page, `merge-${mode}-${Date.now()}@example.com`);
      await page.goto("/projects/new");
      await page.getByLabel("Name").fill(`Orbit ${mode}`);
      await page.getByRole("button", { name: "Create project" }).click();
      await page.getByRole("heading", { level: 1, name: `Orbit ${mode}` }).waitFor();
      await page.getByLabel("Content (Markdown)").fill(PRD);
      await page.getByRole("button", { name: "Save PRD" }).click();
      await page.getByRole("article", { name: "PRD", exact: true }).getByRole("heading", { name: "Problem" }).waitFor();
      const editUrl = `${new URL(page.url()).pathname}?edit`;

      // Both tabs open the editor on version 1.
      const other = await context.newPage();
      await page.goto(editUrl);
      await other.goto(editUrl);
      await page.getByLabel("Content (Markdown)").fill(PRD.replace("Paying takes 9 steps.", "Paying takes 9 steps on the lunar base."));
      await page.getByRole("button", { name: "Save PRD" }).click();
      await page.getByText("Saved. A new version was recorded.").waitFor();

      // The second tab still edits version 1; its save of another section is merged in.
      await other.getByLabel("Content (Markdown)").fill(PRD.replace("- One tap", "- One tap, under 2 seconds"));
      await other.getByRole("button", { name: "Save PRD" }).click();
      await other.getByText("Saved as v3: merged with the changes saved since you started editing.").waitFor();
      await other.goto(new URL(page.url()).pathname);
      const preview = (await other.getByRole("article", { name: "PRD", exact: true }).textContent()) ?? "";
      expect(preview).toContain("Paying takes 9 steps on the lunar base.");
      expect(preview).toContain("One tap, under 2 seconds");
      await screenshot(other, `${mode}-racing-save-merged`);

      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
