import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { newPage, screenshot, useBrowser } from "./browser";

/**
 * The AI journey a new user takes on a fresh machine with no AI key: create a
 * project from a template, answer the builder's questions, generate the PRD,
 * run the coach, derive stories and a diagram. The offline drafter answers,
 * and the pages say so.
 */

const baseURL = inject("baseUrl");
const chromium = useBrowser();

async function signUp(page: Page, name: string, email: string) {
  await page.goto("/sign-up");
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Work e-mail").fill(email);
  await page.getByLabel("Password").fill("Builder-Pass-7");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Set up your workspace" }).waitFor();
  await page.getByRole("button", { name: "Skip for now" }).click();
  await page.getByRole("heading", { name: /Welcome to PRD Studio/ }).waitFor();
}

async function answer(page: Page, text: string, count: number) {
  await page.getByLabel(/Your answer|Anything to add/).fill(text);
  await page.getByRole("button", { name: "Send answer" }).click();
  // The answer is saved and shown in the conversation, with the next question after it.
  await page.locator(".bubble.user", { hasText: text.replace(/\*\*/g, "") }).waitFor();
  // Saved: the streaming bubble has gone and the thread shows the saved pair with the next question.
  await page.waitForFunction((n) => document.querySelectorAll(".chat .bubble.user").length === n && !document.querySelector(".chat .streaming"), count);
  await page.getByTestId("next-question").waitFor();
}

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? "js" : "nojs";

  describe(`AI journey with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    it("builds a PRD in a conversation, generates it, reviews it and derives stories and a diagram", async () => {
      const { context, page, errors } = await newPage(chromium.browser, { javaScriptEnabled, baseURL });
      await signUp(page, "Grace Hopper", `ai-${mode}-${Date.now()}@example.com`);

      await page.goto("/projects/new");
      await page.getByLabel("Name").fill(`Invoice chaser ${mode}`);
      await page.getByLabel("Template").selectOption({ label: "Standard PRD" });
      await page.getByRole("button", { name: "Create project" }).click();
      await page.getByRole("heading", { level: 1, name: `Invoice chaser ${mode}` }).waitFor();

      // The empty document points to the builder.
      await page.getByRole("link", { name: "Build the PRD with AI" }).click();
      await page.getByRole("heading", { name: "Build the PRD in a conversation" }).waitFor();
      expect(await page.getByTestId("answered-by").textContent()).toContain("offline drafter");
      expect(await page.getByTestId("next-question").textContent()).toMatch(/problem/i);

      await answer(page, "AR clerks chase invoices older than 90 days **by hand** in spreadsheets.", 1);
      // The conversation renders Markdown: the bold is bold, not asterisks.
      expect(await page.locator(".bubble.user strong", { hasText: "by hand" }).count()).toBe(1);
      // An answer about nothing the PRD needs is kept, and the builder asks again on the same topic.
      const asked = (await page.getByTestId("next-question").textContent()) ?? "";
      await answer(page, "The weather was nice yesterday.", 2);
      // The reply says the answer was left out of the PRD and missed the question, then asks again.
      const followUp = (await page.getByTestId("next-question").textContent()) ?? "";
      expect(followUp).toContain("The weather was nice yesterday");
      expect(followUp).toContain("It doesn't answer the question about Goals and Success Metrics");
      expect(followUp).toContain("Could you be more specific about “Goals and Success Metrics”?");
      expect(asked).not.toMatch(/Could you be more specific/);
      await answer(page, "Finance controllers at mid-size companies; clerks send the reminders.", 3);
      await answer(page, "Cut days sales outstanding from 58 to 40 within two quarters.", 4);
      await screenshot(page, `${mode}-builder`);

      // Generate: the PRD is saved as a version and shown on the document tab.
      await page.getByRole("button", { name: "Generate PRD" }).click();
      const preview = page.getByRole("article", { name: "PRD", exact: true });
      await preview.waitFor({ timeout: 30_000 });
      await page
        .getByText(/PRD generated as version 1|\bv1\b|version 1\b/)
        .first()
        .waitFor();
      expect(await preview.textContent()).toContain("invoices older than 90 days");
      expect(await preview.textContent()).toContain("from 58 to 40");
      expect(await preview.getByRole("heading", { name: "Problem Statement" }).count()).toBe(1);
      expect(await page.getByRole("heading", { name: "PRD check" }).count()).toBe(1);
      await screenshot(page, `${mode}-generated`);

      // Coach review with the dimension scores.
      await page.getByRole("link", { name: "AI tools" }).click();
      await page.getByRole("button", { name: "Run the coach" }).click();
      await page.getByTestId("coach-review").waitFor({ timeout: 30_000 });
      expect(await page.getByRole("list", { name: "Coach scores by dimension" }).getByRole("listitem").count()).toBe(6);
      await page.getByRole("button", { name: "Score the PRD" }).click();
      await page.getByTestId("overall-score").waitFor();
      // Four answers make a thin draft: the score says so instead of praising it.
      const overall = Number(((await page.getByTestId("overall-score").textContent()) ?? "").match(/\d+/)?.[0]);
      expect(overall).toBeGreaterThan(0);
      expect(overall).toBeLessThan(70);
      await screenshot(page, `${mode}-review`);

      // User stories derived from the PRD.
      await page.getByRole("link", { name: "Stories & specs" }).click();
      await page.getByRole("button", { name: "Write user stories" }).click();
      await page.getByTestId("ai-output").first().waitFor({ timeout: 30_000 });
      expect(await page.getByTestId("ai-output").first().textContent()).toMatch(/As an? .+ I want/);

      // A diagram: drawn as a picture with JavaScript, shown as Mermaid source without.
      await page.getByRole("link", { name: "Diagrams" }).click();
      await page.getByLabel("Diagram type").selectOption("user_flow");
      await page.getByRole("button", { name: "Draw it" }).click();
      const diagram = page.getByTestId("diagram").first();
      await diagram.waitFor({ timeout: 30_000 });
      if (javaScriptEnabled) {
        await diagram.locator(".diagram svg").waitFor({ timeout: 30_000 });
      } else {
        expect(await diagram.getByTestId("mermaid-source").textContent()).toMatch(/^flowchart TD/);
      }
      await screenshot(page, `${mode}-diagram`);

      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
