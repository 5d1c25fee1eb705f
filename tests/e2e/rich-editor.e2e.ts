import type { Browser, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { makePng } from "../fixtures/documents";
import { newPage, screenshot, useBrowser } from "./browser";

/**
 * Writing together, JavaScript on: the rich editor over the stored Markdown,
 * AI on a selection, comments on selected text, and two browsers editing the
 * same PRD live (docs/design/rich-editor.md, docs/design/live-editing.md).
 * The textarea journey with JavaScript off is in projects.e2e.ts and
 * racing-save.e2e.ts.
 */

const baseURL = inject("baseUrl");
const chromium = useBrowser();

const PRD = [
  "# Orbit checkout",
  "",
  "## Problem",
  "Paying at the kiosk takes 9 steps and 70 seconds.",
  "",
  "## Goals",
  "- Pay in one tap",
  "",
  "## Notes",
  "We will basically leverage the ERP export in order to reconcile the daily takings.",
  "",
].join("\n");

async function startWithPrd(browser: Browser, name: string) {
  const { context, page, errors } = await newPage(browser, { javaScriptEnabled: true, baseURL });
  await page.goto("/sign-up");
  await page.getByLabel("Full name").fill("Rita Rich");
  await page.getByLabel("Work e-mail").fill(`${name.toLowerCase().replace(/\W+/g, "-")}-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("Rich-Editor-7");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { name: "Set up your workspace" }).waitFor();
  await page.getByRole("button", { name: "Skip for now" }).click();
  await page.getByRole("heading", { name: /Welcome to PRD Studio/ }).waitFor();
  await page.goto("/projects/new");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
  await page.getByLabel("Content (Markdown)").fill(PRD);
  await page.getByRole("button", { name: "Save PRD" }).click();
  const editor = page.getByRole("textbox", { name: "PRD document" });
  await editor.getByRole("heading", { name: "Problem" }).waitFor();
  const projectPath = new URL(page.url()).pathname;
  return { context, page, errors, editor, projectPath, projectId: projectPath.split("/")[2]! };
}

const paragraph = (page: Page, text: string) => page.getByRole("textbox", { name: "PRD document" }).locator("p", { hasText: text });

async function selectParagraph(page: Page, text: string) {
  await paragraph(page, text).click({ clickCount: 3 });
}

async function storedPrd(page: Page, projectId: string) {
  const response = await page.request.get(`/api/projects/${projectId}/prd`);
  return ((await response.json()) as { prd: { content: string; versionNumber: number } }).prd;
}

describe("the rich editor (JavaScript on)", () => {
  it("edits with the rich editor, inserts a diagram by slash command, saves a version and keeps it after a reload", async () => {
    const { context, page, errors, editor, projectId } = await startWithPrd(chromium.browser, "Orbit rich");
    await page.getByText("Outline", { exact: true }).click();
    await page.getByRole("navigation", { name: "Outline" }).getByRole("button", { name: "Goals" }).waitFor();

    await paragraph(page, "Paying at the kiosk").click();
    await page.keyboard.press("Control+End");
    await paragraph(page, "We will basically").click();
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("/mermaid");
    await page
      .getByRole("listbox", { name: "Insert a block" })
      .getByRole("option", { name: /Mermaid diagram/ })
      .waitFor();
    await page.keyboard.press("Enter");
    await editor.locator(".mermaid-preview svg").waitFor();

    // A picture uploaded from the toolbar lands in the document.
    await paragraph(page, "Paying at the kiosk").click();
    await page.keyboard.press("End");
    await page.getByLabel("Upload an image into the PRD").setInputFiles({ name: "kiosk-flow.png", mimeType: "image/png", buffer: await makePng(60, 40) });
    await editor.locator('img[alt="kiosk-flow"]').waitFor();
    await page.getByText(/Uploading/).waitFor({ state: "hidden" });

    await paragraph(page, "Paying at the kiosk").click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Typed in the rich editor.");
    await page.getByText("All changes saved").waitFor();
    await page.getByRole("button", { name: "Save version" }).click();
    await page.getByText("Saved as version 2.").waitFor();

    const stored = await storedPrd(page, projectId);
    expect(stored.content).toContain("Paying at the kiosk takes 9 steps and 70 seconds. Typed in the rich editor.");
    expect(stored.content).toContain("```mermaid\nflowchart TD");
    expect(stored.content).toMatch(/!\[kiosk-flow\]\(\S+\)/);
    // Untouched Markdown is kept byte for byte.
    expect(stored.content).toContain(
      "## Goals\n- Pay in one tap\n\n## Notes\nWe will basically leverage the ERP export in order to reconcile the daily takings.\n",
    );
    expect(stored.content.startsWith("# Orbit checkout\n\n## Problem\nPaying at the kiosk")).toBe(true);

    await page.reload();
    await paragraph(page, "Typed in the rich editor.").waitFor();
    await screenshot(page, "js-rich-editor");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("rewrites a selection with AI and accepts the suggestion", async () => {
    const { context, page, errors, projectId } = await startWithPrd(chromium.browser, "Orbit ai");
    await selectParagraph(page, "We will basically");
    await page.getByRole("toolbar", { name: "Selected text" }).getByRole("button", { name: "Ask AI" }).click();
    await page.getByRole("button", { name: "Shorten" }).click();
    await page.getByRole("button", { name: "Accept" }).click();
    await page.getByText("The suggestion replaced the selected text.").waitFor();
    await paragraph(page, "We will basically leverage the ERP export to reconcile the daily takings.").waitFor();
    await page.getByText("All changes saved").waitFor();
    await page.getByRole("button", { name: "Save version" }).click();
    await page.getByText(/Saved as version \d+\./).waitFor();
    expect((await storedPrd(page, projectId)).content).toContain("We will basically leverage the ERP export to reconcile the daily takings.");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("comments on selected text, replies in the thread and resolves it", async () => {
    const { context, page, errors, editor } = await startWithPrd(chromium.browser, "Orbit comments");
    await selectParagraph(page, "Paying at the kiosk");
    await page.getByRole("toolbar", { name: "Selected text" }).getByRole("button", { name: "Comment" }).click();
    await page.getByLabel("Your comment").fill("Where do the 70 seconds come from?");
    await page.getByRole("button", { name: "Post comment" }).click();

    const panel = page.getByRole("complementary", { name: /Comments/ });
    const thread = panel.locator("article", { hasText: "Where do the 70 seconds come from?" });
    await thread.locator("blockquote", { hasText: "Paying at the kiosk takes 9 steps and 70 seconds." }).waitFor();
    await editor.locator(".comment-anchor", { hasText: "70 seconds" }).waitFor();

    await thread.locator("summary", { hasText: "Reply" }).click();
    const replyBox = thread.getByLabel("Reply");
    await replyBox.fill("From the March kiosk study.");
    await thread.getByRole("button", { name: "Reply" }).click();
    await thread.locator("p", { hasText: "From the March kiosk study." }).waitFor();
    expect(await replyBox.inputValue()).toBe("");

    await thread.getByRole("button", { name: "Resolve" }).click();
    await panel.getByText("Resolved (1)").waitFor();
    await expect.poll(() => editor.locator(".comment-anchor").count()).toBe(0);
    await screenshot(page, "js-comment-resolved");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("two browsers editing the same paragraph at once converge", async () => {
    const { context, page, errors, projectPath } = await startWithPrd(chromium.browser, "Orbit live");
    const other = await (
      await chromium.browser.newContext({ baseURL, storageState: await context.storageState(), viewport: { width: 1280, height: 800 } })
    ).newPage();
    await other.goto(projectPath);
    await paragraph(other, "Paying at the kiosk").waitFor();

    // One types at the start of the paragraph, the other at its end, at the same time.
    await paragraph(page, "Paying at the kiosk").click();
    await page.keyboard.press("Home");
    await paragraph(other, "Paying at the kiosk").click();
    await other.keyboard.press("End");
    await Promise.all([page.keyboard.type("Today: ", { delay: 20 }), other.keyboard.type(" Target: 1 step.", { delay: 20 })]);

    const expected = "Today: Paying at the kiosk takes 9 steps and 70 seconds. Target: 1 step.";
    await paragraph(page, expected).waitFor();
    await paragraph(other, expected).waitFor();
    await other.getByRole("button", { name: "Save version" }).click();
    await other.getByText(/Saved as version \d+\./).waitFor();
    await screenshot(other, "js-live-coediting");
    expect(errors).toEqual([]);
    await other.context().close();
    await context.close();
  });
});
