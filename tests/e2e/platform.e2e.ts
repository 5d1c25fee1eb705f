import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, describe, expect, inject, it } from "vitest";
import { newPage, screenshot, useBrowser } from "./browser";

/**
 * The account platform as a new user finds it: onboarding wizard and
 * getting-started checklist, profile, a project started from a Markdown and a
 * PDF document, notifications (received through an incoming webhook that
 * notifies all members), notification preferences, outgoing webhooks, the data
 * export and deleting the account.
 */

const baseURL = inject("baseUrl");
const chromium = useBrowser();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "prd-e2e-docs-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const MARKDOWN = [
  "# Offline field notes",
  "",
  "Field engineers lose their notes when the network drops in a basement.",
  "",
  "## Requirements",
  "",
  "The app must save every note on the device while offline.",
  "Notes should sync within 30 seconds of reconnecting.",
  "Engineers must see which notes are not synced yet.",
  "",
].join("\n");

async function writePdf(file: string) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const pg = pdf.addPage([595, 842]);
  const lines: [string, number][] = [
    ["Kiosk ordering brief", 20],
    ["Guests wait too long at the counter during the lunch rush.", 11],
    ["The kiosk must accept contactless payment.", 11],
    ["Orders should reach the kitchen screen within two seconds.", 11],
  ];
  let y = 780;
  for (const [text, size] of lines) {
    pg.drawText(text, { x: 50, y, size, font });
    y -= size * 2;
  }
  fs.writeFileSync(file, await pdf.save());
}

/** The project page's own title (the imported PRD renders its "# Title" as a second h1 in the preview). */
const projectTitle = (page: Page, name: string) => page.locator(".project-header").getByRole("heading", { level: 1, name, exact: true });

/** The checklist item of one step, by its title. */
const step = (page: Page, title: string) => page.getByRole("region", { name: "Getting started" }).getByRole("listitem").filter({ hasText: title });

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? "js" : "nojs";

  describe(`platform journey with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    it("onboards, edits the profile, starts projects from documents, gets notified, sets up webhooks, exports and deletes the account", async () => {
      const { context, page, errors } = await newPage(chromium.browser, { javaScriptEnabled, baseURL });
      // Fail fast on a missing element rather than after the 30 s default.
      context.setDefaultTimeout(10_000);
      const stamp = Date.now();
      const email = `ada-${mode}-${stamp}@example.com`;
      const password = "Engine-Notes-1843";

      // 1. Sign up, then the onboarding wizard with every field filled.
      await page.goto("/sign-up");
      await page.getByLabel("Full name").fill("Ada Lovelace");
      await page.getByLabel("Work e-mail").fill(email);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("heading", { name: "Set up your workspace" }).waitFor();
      expect(await page.getByLabel("Full name").inputValue()).toBe("Ada Lovelace");
      await page.getByLabel("Full name").fill("Ada King Lovelace");
      await page.getByLabel("Job title").fill("Head of Product");
      await page.getByLabel("Company").fill("Analytical Engines Ltd");
      await page.getByLabel("What will you write first?").fill("A PRD for the difference engine's new punch-card reader.");
      await page.getByLabel("Team size").selectOption("2-10");
      await page.getByLabel("Preferred PRD style").selectOption("lean");
      await page.getByLabel("AI-assisted writing").check();
      await page.getByLabel("Roadmaps").check();
      await page.getByLabel("Create a new organization for my team").check();
      await page.getByLabel("Organization name").fill(`Engine Room ${mode}`);
      await page.getByLabel("Invite teammates").fill(`charles-${mode}-${stamp}@example.com`);
      await screenshot(page, `${mode}-platform-onboarding`);
      await page.getByRole("button", { name: "Finish setup" }).click();

      await page.getByRole("heading", { name: "Welcome to PRD Studio, Ada" }).waitFor();
      const checklist = page.getByRole("region", { name: "Getting started" });
      expect(await checklist.getByRole("listitem").count()).toBe(5);
      // Job title filled and a teammate invited: 2 of 5.
      expect(await checklist.getByText("2 of 5 done.").count()).toBe(1);
      expect(await step(page, "Complete your profile").textContent()).toContain("(done)");
      expect(await step(page, "Invite a teammate").textContent()).toContain("(done)");
      expect(await step(page, "Start a project").textContent()).toContain("(to do)");
      expect(await step(page, "Start a project").getByRole("link", { name: "New project" }).count()).toBe(1);
      // The onboarding nudge is gone; the session moved to the new organization.
      expect(await page.getByText("Tell us a little about your work").count()).toBe(0);
      expect(await page.locator(".sidebar .account").textContent()).toContain(`Engine Room ${mode}`);
      await screenshot(page, `${mode}-platform-home-checklist`);

      // 2. Profile on /settings.
      await page.getByRole("link", { name: "Settings", exact: true }).click();
      await page.getByRole("heading", { name: "Profile" }).waitFor();
      expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Ada King Lovelace");
      expect(await page.getByLabel("Job title").inputValue()).toBe("Head of Product");
      expect(await page.getByLabel("Preferred PRD style").inputValue()).toBe("lean");
      await page.getByLabel("Job title").fill("VP Product");
      await page.getByLabel("Bio").fill("Writes the notes that explain the engine.");
      await page.getByLabel("Timezone").selectOption("Europe/London");
      await page.getByRole("button", { name: "Save profile" }).click();
      await page.getByText("Profile saved.").waitFor();
      await page.reload();
      expect(await page.getByLabel("Job title").inputValue()).toBe("VP Product");
      expect(await page.getByLabel("Bio").inputValue()).toBe("Writes the notes that explain the engine.");
      expect(await page.getByLabel("Timezone").inputValue()).toBe("Europe/London");
      expect(await page.getByRole("row", { name: /Name/ }).textContent()).toContain(`Engine Room ${mode}`);
      await screenshot(page, `${mode}-platform-settings`);

      // 3. A project by hand, then one from a Markdown document and one from a PDF.
      await page.goto("/projects/new");
      await page.getByLabel("Name", { exact: true }).fill(`Punch-card reader ${mode}`);
      await page.getByLabel("Description").fill("Read cards twice as fast.");
      await page.getByRole("button", { name: "Create project" }).click();
      await page.getByRole("heading", { level: 1, name: `Punch-card reader ${mode}` }).waitFor();

      await page.goto("/projects/new");
      await page.getByRole("heading", { name: "Start a project from a document" }).waitFor();
      if (!javaScriptEnabled) {
        // The input is `required`: without JavaScript the browser itself blocks the empty submission.
        expect(await page.getByLabel("Document", { exact: true }).evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
      }
      const md = path.join(tmp, `field-notes-${mode}.md`);
      fs.writeFileSync(md, MARKDOWN);
      await page.getByLabel("Document", { exact: true }).setInputFiles(md);
      await screenshot(page, `${mode}-platform-new-project`);
      await page.getByRole("button", { name: "Create from document" }).click();
      await projectTitle(page, "Offline field notes").waitFor();
      const preview = page.getByRole("article", { name: "PRD", exact: true });
      await preview.getByText("The app must save every note on the device while offline.").waitFor();
      expect(await preview.getByText("Notes should sync within 30 seconds of reconnecting.").count()).toBe(1);
      expect(await preview.textContent()).toContain(`Imported from “field-notes-${mode}.md”`);
      expect(await preview.getByRole("heading", { level: 2, name: "Requirements" }).count()).toBe(1);
      expect(await page.locator("p.muted", { hasText: "Field engineers lose their notes" }).count()).toBe(1);
      await screenshot(page, `${mode}-platform-project-from-markdown`);
      await page.getByRole("link", { name: "Files", exact: true }).click();
      await page.getByText(`field-notes-${mode}.md`).first().waitFor();
      await screenshot(page, `${mode}-platform-project-files`);

      const pdfFile = path.join(tmp, `kiosk-${mode}.pdf`);
      await writePdf(pdfFile);
      await page.goto("/projects/new");
      await page.getByLabel("Document", { exact: true }).setInputFiles(pdfFile);
      await page.getByRole("button", { name: "Create from document" }).click();
      await projectTitle(page, "Kiosk ordering brief").waitFor();
      await page.getByRole("article", { name: "PRD", exact: true }).getByText("The kiosk must accept contactless payment.").waitFor();
      await screenshot(page, `${mode}-platform-project-from-pdf`);
      const projectPath = new URL(page.url()).pathname;

      // A file that is not a document is refused with a clear message.
      const bogus = path.join(tmp, `photo-${mode}.png`);
      fs.writeFileSync(bogus, Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"));
      await page.goto("/projects/new");
      await page.getByLabel("Document", { exact: true }).setInputFiles(bogus);
      await page.getByRole("button", { name: "Create from document" }).click();
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("This file is a PNG file (image/png), not a document");
      await screenshot(page, `${mode}-platform-document-refused`);

      await page.goto("/home");
      expect(await step(page, "Start a project").textContent()).toContain("(done)");
      expect(await step(page, "Write your first PRD").textContent()).toContain("(done)");

      // 4. Notifications: none yet.
      const bell = page.getByTestId("notification-bell");
      expect(await bell.getAttribute("aria-label")).toBe("Notifications, none unread");
      await bell.click();
      await page.getByRole("heading", { name: "No notifications yet" }).waitFor();
      expect(await page.getByText("You are all caught up.").count()).toBe(1);
      await screenshot(page, `${mode}-platform-notifications-empty`);

      // An incoming webhook that notifies all members, posted to like a CI tool would.
      await page.getByRole("link", { name: "Settings", exact: true }).click();
      await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Incoming webhooks" }).click();
      await page.getByRole("heading", { name: "No incoming webhooks yet" }).waitFor();
      await page.getByLabel("Name", { exact: true }).fill("Deploy bot");
      await page.getByLabel("Action", { exact: true }).selectOption({ label: "Notify all members" });
      await page.getByRole("button", { name: "Create webhook" }).click();
      const incomingUrl = (await page.getByTestId("incoming-url").textContent())!.trim();
      expect(incomingUrl).toMatch(new RegExp(`^${baseURL}/api/webhooks/incoming/`));
      // As on the webhooks page, the new row may follow the one-time URL by a moment.
      await page.getByRole("cell", { name: "Deploy bot", exact: true }).waitFor();
      await screenshot(page, `${mode}-platform-incoming-webhook`);

      const posted = await fetch(incomingUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ title: "Kiosk build deployed", text: "Version 1.4 is live in the staging store.", link: projectPath }),
      });
      expect(posted.status).toBeLessThan(300);
      expect(await posted.json()).toMatchObject({ received: true, status: "processed" });

      await page.getByRole("link", { name: "Recent events of Deploy bot" }).click();
      await page.getByRole("heading", { name: "Recent events of Deploy bot" }).waitFor();
      expect(await page.getByRole("cell", { name: "processed" }).count()).toBe(1);
      await screenshot(page, `${mode}-platform-incoming-events`);

      // The bell counts it; the notification can be read and opened.
      expect(await bell.getAttribute("aria-label")).toBe("Notifications, 1 unread");
      expect(await bell.textContent()).toBe("Notifications (1)");
      await bell.click();
      await page.getByText("1 unread.").waitFor();
      const item = page.getByRole("listitem").filter({ hasText: "Kiosk build deployed" });
      expect(await item.getByText("Version 1.4 is live in the staging store.").count()).toBe(1);
      expect(await item.getByText("New", { exact: true }).count()).toBe(1);
      await screenshot(page, `${mode}-platform-notifications-unread`);
      await item.getByRole("button", { name: "Mark as read" }).click();
      await page.getByText("You are all caught up.").waitFor();
      expect(await bell.getAttribute("aria-label")).toBe("Notifications, none unread");
      expect(await item.getByText("New", { exact: true }).count()).toBe(0);
      await page.getByRole("link", { name: "Unread (0)" }).click();
      await page.getByRole("heading", { name: "No unread notifications" }).waitFor();
      await page.getByRole("link", { name: "All", exact: true }).click();
      await item.getByRole("button", { name: "Open" }).click();
      await projectTitle(page, "Kiosk ordering brief").waitFor();

      // Preferences: weekly digest on, exports off, kept after a reload.
      await page.goto("/notifications");
      await page.getByRole("link", { name: "Choose what you are notified about" }).click();
      await page.getByRole("heading", { name: "Notifications", level: 2 }).waitFor();
      expect(await page.getByLabel("Weekly digest").isChecked()).toBe(false);
      expect(await page.getByLabel("Exports").isChecked()).toBe(true);
      await page.getByLabel("Weekly digest").check();
      await page.getByLabel("Exports").uncheck();
      await page.getByRole("button", { name: "Save preferences" }).click();
      await page.getByText("Notification preferences saved.").waitFor();
      await page.reload();
      expect(await page.getByText("Notification preferences saved.").count()).toBe(0);
      expect(await page.getByLabel("Weekly digest").isChecked()).toBe(true);
      expect(await page.getByLabel("Exports").isChecked()).toBe(false);
      expect(await page.getByLabel("Mentions").isChecked()).toBe(true);
      await screenshot(page, `${mode}-platform-notification-preferences`);

      // 5. Outgoing webhooks. The e2e server creates organizations on Starter (DEFAULT_PLAN), which allows 2.
      await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Webhooks", exact: true }).click();
      await page.getByRole("heading", { name: "No webhooks yet" }).waitFor();
      expect(await page.getByText("0 of 2 used on the Starter plan.").count()).toBe(1);
      await page.getByLabel("Name", { exact: true }).fill("Chat relay");
      await page.getByLabel("URL", { exact: true }).fill("http://127.0.0.1:9/hook");
      await page.getByLabel("project.created", { exact: true }).check();
      await page.getByRole("button", { name: "Add webhook" }).click();
      await page.locator("#field-url-error").waitFor();
      expect(await page.locator("#field-url-error").textContent()).toMatch(/private, loopback or reserved/);
      expect(await page.getByLabel("project.created", { exact: true }).isChecked()).toBe(true);
      await screenshot(page, `${mode}-platform-webhook-refused`);
      await page.getByLabel("URL", { exact: true }).fill("https://example.com/hooks/prd");
      await page.getByRole("button", { name: "Add webhook" }).click();
      await page.getByRole("heading", { name: "Webhook “Chat relay” created" }).waitFor();
      expect((await page.getByTestId("webhook-secret").textContent())!.trim().length).toBeGreaterThanOrEqual(16);
      // With JavaScript the secret card renders a moment before the list is revalidated: wait for the list.
      await page.getByRole("link", { name: "Chat relay" }).waitFor();
      await page.getByText("1 of 2 used on the Starter plan.").waitFor();
      await screenshot(page, `${mode}-platform-webhooks`);
      await page.getByRole("link", { name: "Chat relay" }).click();
      await page.getByRole("heading", { name: "Recent deliveries" }).waitFor();
      await screenshot(page, `${mode}-platform-webhook-detail`);

      // 6. Data export, then deleting the account.
      await page.goto("/settings");
      const downloadLink = page.getByRole("link", { name: "Download my data" });
      expect(await downloadLink.getAttribute("href")).toBe("/api/user/data-export");
      // As a user gets it: the browser downloads a JSON file. (page.request cannot read this response yet: see the test below.)
      const [download] = await Promise.all([page.waitForEvent("download"), downloadLink.click()]);
      expect(download.suggestedFilename()).toMatch(/^prd-studio-data-\d{4}-\d{2}-\d{2}\.json$/);
      expect(await download.failure()).toBeNull();
      const data = JSON.parse(fs.readFileSync((await download.path())!, "utf8"));
      expect(data.profile).toMatchObject({ email, jobTitle: "VP Product", bio: "Writes the notes that explain the engine.", timezone: "Europe/London" });
      expect(data.onboarding.preferences).toMatchObject({ company: "Analytical Engines Ltd", teamSize: "2-10" });
      expect(data.projects.map((p: { name: string }) => p.name).sort()).toEqual(["Kiosk ordering brief", "Offline field notes", `Punch-card reader ${mode}`]);
      expect(data.notifications.map((n: { title: string }) => n.title)).toEqual(["Kiosk build deployed"]);

      const confirm = page.getByLabel(`Type ${email} to confirm`);
      await confirm.fill(`someone-else-${mode}@example.com`);
      await page.getByRole("button", { name: "Delete my account" }).click();
      await page.locator("#field-confirmEmail-error").waitFor();
      expect(await page.locator("#field-confirmEmail-error").textContent()).toContain("Type your account e-mail exactly");
      await screenshot(page, `${mode}-platform-delete-refused`);
      await page.getByLabel(`Type ${email} to confirm`).fill(email);
      await page.getByRole("button", { name: "Delete my account" }).click();
      await page.waitForURL(/\/sign-in\?accountDeleted=1/);
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      // No notice confirms the deletion: the sign-in loader ignores ?accountDeleted=1 (reported, not asserted).
      await screenshot(page, `${mode}-platform-account-deleted`);

      // Signing in again fails with the usual message.
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("E-mail or password is incorrect");
      await screenshot(page, `${mode}-platform-sign-in-after-delete`);
      await page.goto("/home");
      await page.waitForURL(/\/sign-in\?redirectTo=%2Fhome/);

      expect(errors).toEqual([]);
      await context.close();
    });
  });
}

describe("data export over HTTP", () => {
  // The node adapter once added a second Content-Length to JSON downloads that
  // carried one, which strict HTTP clients (Node's parser, used by
  // page.request) refuse.
  it("is a well-formed response that a strict HTTP client can read with the page's cookies", async () => {
    const { context, page, errors } = await newPage(chromium.browser, { javaScriptEnabled: true, baseURL });
    context.setDefaultTimeout(10_000);
    const email = `export-${Date.now()}@example.com`;
    await page.goto("/sign-up");
    await page.getByLabel("Full name").fill("Mary Somerville");
    await page.getByLabel("Work e-mail").fill(email);
    await page.getByLabel("Password").fill("Connexion-1834");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Set up your workspace" }).waitFor();
    await page.getByRole("button", { name: "Skip for now" }).click();
    await page.getByRole("heading", { name: /Welcome to PRD Studio/ }).waitFor();
    await page.goto("/settings");
    const href = await page.getByRole("link", { name: "Download my data" }).getAttribute("href");
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-disposition"]).toMatch(/^attachment; filename="prd-studio-data-\d{4}-\d{2}-\d{2}\.json"/);
    expect((await res.json()).profile.email).toBe(email);
    expect(errors).toEqual([]);
    await context.close();
  });
});
