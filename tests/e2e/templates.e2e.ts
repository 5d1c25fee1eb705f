import { describe, expect, inject, it } from "vitest";
import { newPage, screenshot, useBrowser } from "./browser";

const baseURL = inject("baseUrl");
const chromium = useBrowser();

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? "js" : "nojs";

  describe(`templates journey with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    it("browses the marketplace signed out, signs up from a template and starts a project with it", async () => {
      const { context, page, errors } = await newPage(chromium.browser, { javaScriptEnabled, baseURL });

      // Public, indexable marketplace.
      await page.goto("/marketplace");
      await page.getByRole("heading", { level: 1, name: "PRD templates that get features shipped" }).waitFor();
      expect(await page.getByRole("link", { name: "Standard PRD" }).count()).toBe(1);
      expect(await page.locator('meta[property="og:title"]').getAttribute("content")).toContain("marketplace");
      await page.getByLabel("Category").selectOption("ai");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.waitForURL(/category=ai/);
      await page.getByRole("link", { name: "AI / ML Feature" }).waitFor();
      expect(await page.getByRole("link", { name: "Standard PRD" }).count()).toBe(0);
      await screenshot(page, `${mode}-marketplace`);

      // Detail page, server-rendered with its own description and Open Graph tags.
      await page.getByRole("link", { name: "AI / ML Feature" }).click();
      await page.getByRole("heading", { level: 1, name: "AI / ML Feature" }).waitFor();
      expect(await page.title()).toContain("AI / ML Feature");
      expect(await page.locator('meta[name="description"]').getAttribute("content")).toMatch(/LLM|model/i);
      expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toMatch(/\/marketplace\/sys-ai-ml-feature$/);
      expect(await page.getByText("[Protected]").count()).toBe(0);

      // Sign up from the template, come back to it, start a project.
      await page.getByRole("link", { name: "Sign up to use it" }).click();
      await page.getByLabel("Full name").fill("Fei-Fei Li");
      await page.getByLabel("Work e-mail").fill(`tpl-${mode}-${Date.now()}@example.com`);
      await page.getByLabel("Password").fill("Template-Pass-3");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("button", { name: "Start a project with it" }).waitFor();
      await page.getByLabel("Project name").fill(`Smart triage ${mode}`);
      await page.getByRole("button", { name: "Start a project with it" }).click();
      await page.getByRole("heading", { level: 1, name: `Smart triage ${mode}` }).waitFor();
      expect(await page.getByText("Template: AI / ML Feature").count()).toBe(1);
      // The editor starts from the template's sections.
      const draft = await page.getByLabel("Content (Markdown)").inputValue();
      expect(draft).toContain(`# Smart triage ${mode}`);
      expect(draft).toMatch(/## .*Evaluation/);
      await page.getByRole("button", { name: "Save PRD" }).click();
      await page.getByRole("article", { name: "PRD", exact: true }).waitFor();
      await screenshot(page, `${mode}-project-from-template`);

      // The copy is in the workspace's templates; the gallery starts projects too.
      await page.goto("/templates?type=organization");
      await page.getByRole("link", { name: "AI / ML Feature" }).first().waitFor();
      await page.goto("/templates?type=system&category=mobile");
      await page.getByRole("link", { name: "Use template" }).click();
      await page.getByLabel("Name").fill(`Offline mode ${mode}`);
      expect(await page.getByLabel("Template").inputValue()).toBe("sys-mobile-feature");
      await page.getByRole("button", { name: "Create project" }).click();
      await page.getByRole("heading", { level: 1, name: `Offline mode ${mode}` }).waitFor();
      expect(await page.getByText("Template: Mobile App Feature").count()).toBe(1);

      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
