import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { newPage, screenshot, useBrowser } from "./browser";

const baseURL = inject("baseUrl");
const chromium = useBrowser();

async function signUp(page: Page, name: string, email: string) {
  await page.goto("/sign-up");
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Work e-mail").fill(email);
  await page.getByLabel("Password").fill("Project-Pass-7");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Set up your workspace" }).waitFor();
  await page.getByRole("button", { name: "Skip for now" }).click();
  await page.getByRole("heading", { name: /Welcome to PRD Studio/ }).waitFor();
}

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? "js" : "nojs";

  describe(`project journey with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    it("creates a project, writes the PRD, comments, shares it and opens the link in a fresh browser", async () => {
      const { context, page, errors } = await newPage(chromium.browser, { javaScriptEnabled, baseURL });
      await signUp(page, "Margaret Hamilton", `pm-${mode}-${Date.now()}@example.com`);

      // Empty dashboard guides the user to the first project.
      await page.getByRole("link", { name: "Projects", exact: true }).click();
      await page.getByRole("heading", { name: "Start your first PRD" }).waitFor();
      await page.getByRole("link", { name: "Create a project" }).click();
      await page.getByLabel("Name").fill(`Lunar checkout ${mode}`);
      await page.getByLabel("Description").fill("Let astronauts pay in one tap.");
      await page.getByLabel("Priority").selectOption("high");
      await page.getByRole("button", { name: "Create project" }).click();
      await page.getByRole("heading", { level: 1, name: `Lunar checkout ${mode}` }).waitFor();

      // Write the PRD.
      await page.getByLabel("Content (Markdown)").fill("# Lunar checkout\n\n## Problem\nPaying takes 9 steps.\n\n## Goals\n- One tap\n");
      await page.getByLabel("Style").selectOption("lean");
      await page.getByRole("button", { name: "Save PRD" }).click();
      await page.getByRole("article", { name: "PRD", exact: true }).getByRole("heading", { name: "Problem" }).waitFor();

      // Comment on a section.
      await page.getByLabel("New comment").fill("Which 9 steps exactly?");
      await page.getByLabel("On section").selectOption({ label: "Problem" });
      await page.getByRole("button", { name: "Comment", exact: true }).click();
      await page.locator(".comment-body", { hasText: "Which 9 steps exactly?" }).waitFor();
      expect(await page.getByRole("region", { name: "On Problem" }).locator(".comment-body", { hasText: "Which 9 steps exactly?" }).count()).toBe(1);
      await screenshot(page, `${mode}-project-document`);

      // Keyword search finds it by a word of the PRD, highlighted.
      await page.getByLabel("Search", { exact: true }).fill("paying");
      await page.getByLabel("Search", { exact: true }).press("Enter");
      await page.getByRole("link", { name: `Lunar checkout ${mode}` }).waitFor();
      expect(await page.locator(".snippet mark").first().textContent()).toMatch(/pay/i);

      // The dashboard lists it.
      await page.goto("/projects?status=DRAFT&sortBy=name");
      expect(await page.getByRole("link", { name: `Lunar checkout ${mode}` }).count()).toBe(1);
      await page.getByRole("link", { name: `Lunar checkout ${mode}` }).click();

      // Share with a password.
      await page.getByRole("link", { name: "Sharing & people" }).click();
      await page.getByLabel("Password (optional)").fill("moonwalk");
      await page.getByRole("button", { name: "Create share link" }).click();
      const shareUrl = (await page.getByTestId("share-url").textContent())!.trim();
      expect(shareUrl).toMatch(/\/share\/[A-Za-z0-9_-]+$/);
      expect(await page.getByText("Protected by a password.").count()).toBe(1);
      await screenshot(page, `${mode}-sharing`);

      // A stranger opens the link in a fresh context: asked for the password, then reads the PRD.
      const stranger = await newPage(chromium.browser, { javaScriptEnabled, baseURL });
      await stranger.page.goto(shareUrl);
      await stranger.page.getByRole("heading", { name: "This PRD is protected" }).waitFor();
      await stranger.page.getByLabel("Password").fill("wrong-one");
      await stranger.page.getByRole("button", { name: "Open" }).click();
      await stranger.page.getByText("That password is not right.").waitFor();
      await stranger.page.getByLabel("Password").fill("moonwalk");
      await stranger.page.getByRole("button", { name: "Open" }).click();
      await stranger.page.getByRole("heading", { level: 1, name: `Lunar checkout ${mode}` }).waitFor();
      expect(await stranger.page.getByText("Paying takes 9 steps.").count()).toBe(1);
      // Read-only: no editor, no comments.
      expect(await stranger.page.getByLabel("Content (Markdown)").count()).toBe(0);
      expect(await stranger.page.getByText("Which 9 steps exactly?").count()).toBe(0);
      await screenshot(stranger.page, `${mode}-share-page`);

      // Revoke; the stranger's link stops working.
      await page.getByRole("button", { name: "Revoke link" }).click();
      await page.getByText("Share link revoked.").waitFor();
      await stranger.page.reload();
      await stranger.page.getByRole("heading", { name: "This link does not work" }).waitFor();

      expect(errors).toEqual([]);
      expect(stranger.errors).toEqual([]);
      await stranger.context.close();
      await context.close();
    });
  });
}
