import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { newPage, screenshot, useBrowser } from "./browser";

/**
 * Running the organization as an owner finds it: invite a teammate who
 * accepts in their own browser, see them among the members, set the branding
 * and see it in the sidebar, then change the
 * plan through the built-in checkout and read it back on the billing page.
 * (The e2e server starts organizations on Starter: DEFAULT_PLAN in global-setup.)
 */

const baseURL = inject("baseUrl");
const chromium = useBrowser();

async function signUp(page: Page, name: string, email: string, password: string) {
  await page.getByLabel("Full name").fill(name);
  await page.getByLabel("Work e-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
}

/** The newest link in the outbox that contains `part` (mail goes to the outbox on a fresh install). */
async function outboxLink(page: Page, part: string) {
  for (let i = 0; i < 20; i++) {
    await page.goto("/settings/outbox");
    const link = page.locator(`a[href*="${part}"]`).first();
    if (await link.count()) return (await link.getAttribute("href"))!;
    await page.waitForTimeout(250);
  }
  throw new Error(`no ${part} link in the outbox`);
}

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? "js" : "nojs";

  describe(`organization journey with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    it("invites a teammate who accepts in another browser, brands the workspace, then upgrades the plan through the built-in checkout", async () => {
      const stamp = Date.now();
      const owner = await newPage(chromium.browser, { javaScriptEnabled, baseURL });
      owner.context.setDefaultTimeout(10_000);
      const page = owner.page;

      await page.goto("/sign-up");
      await signUp(page, "Grace Owner", `grace-${mode}-${stamp}@example.com`, "Owner-Pass-2026");
      await page.getByRole("heading", { name: "Set up your workspace" }).waitFor();
      await page.getByRole("button", { name: "Skip for now" }).click();
      await page.getByRole("link", { name: "Administration" }).click();
      await page.getByRole("heading", { name: "Administration" }).waitFor();

      // Invite a teammate as a member.
      const teammate = `alan-${mode}-${stamp}@example.com`;
      await page.getByRole("link", { name: "Invitations" }).click();
      await page.getByLabel("E-mail").fill(teammate);
      await page.getByLabel("Role").selectOption("member");
      await page.getByRole("button", { name: /send invitation|invite/i }).click();
      await page.getByRole("cell", { name: teammate, exact: true }).first().waitFor();
      await screenshot(page, `${mode}-org-invitations`);
      const link = await outboxLink(page, "/invite/");

      // The teammate opens the link in their own browser, creates an account and lands in the organization.
      const guest = await newPage(chromium.browser, { javaScriptEnabled, baseURL });
      guest.context.setDefaultTimeout(10_000);
      await guest.page.goto(new URL(link, baseURL).pathname);
      await guest.page.getByRole("heading", { name: /^Join / }).waitFor();
      await guest.page.getByRole("link", { name: "Create an account to join" }).click();
      await guest.page.getByText("Accept your invitation and join your team.").waitFor();
      await signUp(guest.page, "Alan Teammate", teammate, "Guest-Pass-2026");
      await guest.page.locator(".sidebar .account").getByText("Grace Owner's workspace", { exact: false }).waitFor();
      expect(await guest.page.locator(".sidebar .account").textContent()).toContain("member");
      await screenshot(guest.page, `${mode}-org-guest-joined`);
      await guest.context.close();

      // The owner sees the new member; the invitation is no longer pending.
      await page.goto("/admin/members");
      await page.getByRole("cell", { name: "Alan Teammate" }).first().waitFor();
      await screenshot(page, `${mode}-org-members`);

      // Branding: a company name and colour, seen in the app's own sidebar at once.
      await page.getByRole("link", { name: "Branding" }).click();
      await page.getByLabel("Company name").fill(`Lovelace Labs ${mode}`);
      await page.getByLabel("Primary colour").fill("#0f766e");
      await page.getByRole("button", { name: "Save branding" }).click();
      await page.locator(".sidebar").getByText(`Lovelace Labs ${mode}`).first().waitFor();
      // The colour the shell's links get (--brand, resolved for the light theme).
      const brand = await page.evaluate(() => {
        const probe = document.createElement("span");
        probe.style.color = "var(--brand)";
        document.querySelector(".sidebar")!.appendChild(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return colour;
      });
      expect(brand).toBe("rgb(15, 118, 110)");
      await screenshot(page, `${mode}-org-branding`);

      // Upgrade Starter → Pro through the built-in checkout.
      await page.goto("/admin/plans");
      await page.getByLabel(/Annual/).check();
      await page.getByRole("button", { name: "Choose Pro" }).click();
      await page.getByRole("heading", { name: "Change plan to Pro" }).waitFor();
      await screenshot(page, `${mode}-org-checkout`);
      await page.getByRole("button", { name: "Confirm and switch to Pro" }).click();
      await page.waitForURL(/\/admin\/billing/);
      expect(await page.locator(".sidebar .account").textContent()).toContain("Pro");
      await screenshot(page, `${mode}-org-billing`);

      expect(owner.errors).toEqual([]);
      await owner.context.close();
    });
  });
}
