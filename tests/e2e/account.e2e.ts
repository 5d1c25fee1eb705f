import { describe, expect, inject, it } from "vitest";
import { newPage, screenshot, useBrowser } from "./browser";

const baseURL = inject("baseUrl");
const chromium = useBrowser();

for (const javaScriptEnabled of [false, true]) {
  const mode = javaScriptEnabled ? "js" : "nojs";

  describe(`account journey with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    it("signs up, signs out, signs in and creates an API key that works with the API", async () => {
      const { context, page, errors } = await newPage(chromium.browser, { javaScriptEnabled, baseURL });
      const email = `e2e-${mode}-${Date.now()}@example.com`;
      const password = "Journey-Pass-42";

      // Sign up, with a server-side validation round trip first.
      await page.goto("/sign-up");
      await page.getByLabel("Full name").fill("Grace Hopper");
      await page.getByLabel("Work e-mail").fill(email);
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Create account" }).click();
      await expect.poll(() => page.locator(".field-error").first().textContent()).toContain("at least 8 characters");
      expect(await page.getByLabel("Full name").inputValue()).toBe("Grace Hopper");
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("heading", { name: "Set up your workspace" }).waitFor();
      await page.getByRole("button", { name: "Skip for now" }).click();
      await page.getByRole("heading", { name: "Welcome to PRD Studio, Grace" }).waitFor();
      await screenshot(page, `${mode}-home`);

      // Sign out from the sidebar.
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(/\/sign-in/);
      await page.getByText("You are signed out").waitFor();
      await page.goto("/home");
      await page.waitForURL(/\/sign-in\?redirectTo=%2Fhome/);

      // A wrong password is refused with a clear message; the right one signs in.
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password").fill("Wrong-Pass-1");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("E-mail or password is incorrect");
      await page.getByLabel("Password").fill(password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Hello, Grace" }).waitFor();

      // Create an API key; it is shown once.
      await page.goto("/settings/api-keys");
      expect(await page.getByText("No API keys yet").count()).toBe(1);
      await page.getByLabel("Name").fill(`CI ${mode}`);
      await page.getByRole("button", { name: "Create API key" }).click();
      const keyLocator = page.getByTestId("new-api-key");
      await keyLocator.waitFor();
      const key = (await keyLocator.textContent())!.trim();
      expect(key).toMatch(/^svc_[0-9a-f]{40}$/);
      expect(await page.getByRole("cell", { name: `CI ${mode}`, exact: true }).count()).toBe(1);
      await screenshot(page, `${mode}-api-key`);

      // The key reaches the API like curl would.
      const me = await fetch(`${baseURL}/api/auth/me`, { headers: { Authorization: `Bearer ${key}` } });
      expect(me.status).toBe(200);
      expect(me.headers.get("API-Version")).toBe("1");
      expect((await me.json()).user.email).toBe(email);
      const list = await fetch(`${baseURL}/api/admin/rest-api-keys`, { headers: { Authorization: `Bearer ${key}` } });
      const listed = await list.json();
      expect(listed.apiKeys.map((k: { name: string }) => k.name)).toEqual([`CI ${mode}`]);
      expect(JSON.stringify(listed)).not.toContain(key);

      // Reloading does not create a second key, nor show the secret again.
      await page.reload();
      expect(await page.getByTestId("new-api-key").count()).toBe(0);
      expect(await page.getByRole("cell", { name: `CI ${mode}`, exact: true }).count()).toBe(1);

      // Revoke it from the UI; the API then refuses it.
      await page.getByRole("button", { name: `Revoke CI ${mode}` }).click();
      await expect.poll(() => page.getByRole("status").textContent()).toContain("was revoked");
      const after = await fetch(`${baseURL}/api/auth/me`, { headers: { Authorization: `Bearer ${key}` } });
      expect(after.status).toBe(401);
      expect((await after.json()).code).toBe("UNAUTHORIZED");

      expect(errors).toEqual([]);
      await context.close();
    });

    it("hands an invitation link over by hand when no mail is sent, and never shows an account its own confirmation link", async () => {
      const owner = await newPage(chromium.browser, { javaScriptEnabled, baseURL });
      const page = owner.page;
      await page.goto("/sign-up");
      await page.getByLabel("Full name").fill("Katherine Johnson");
      await page.getByLabel("Work e-mail").fill(`owner-${mode}-${Date.now()}@example.com`);
      await page.getByLabel("Password").fill("Orbit-Math-1962");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("heading", { name: "Set up your workspace" }).waitFor();
      await page.getByRole("button", { name: "Skip for now" }).click();
      await page.getByRole("heading", { name: /Katherine/ }).waitFor();
      // Without SMTP nobody can confirm an address, so the home page does not ask for it.
      expect(await page.getByText("Please confirm your e-mail address").count()).toBe(0);

      // Invite a teammate: the page says no mail leaves this server, and Copy link shows the link.
      const invitee = `dorothy-${mode}-${Date.now()}@example.com`;
      await page.goto("/admin/invitations");
      await page.getByLabel("E-mail").fill(invitee);
      await page.getByRole("button", { name: "Send invitation" }).click();
      await expect.poll(() => page.getByRole("status").first().textContent()).toContain("use Copy link");
      await page.getByRole("button", { name: `Copy link to the invitation for ${invitee}` }).click();
      const field = page.getByRole("textbox", { name: `Invitation link for ${invitee}` });
      await field.waitFor();
      const link = await field.inputValue();
      expect(link).toMatch(new RegExp(`^${baseURL}/invite/[A-Za-z0-9_-]{40,}$`));
      await screenshot(page, `${mode}-invitation-link`);

      // The outbox shows the invitation to its admin, but never the account's own confirmation link.
      for (let i = 0; i < 20 && !(await page.getByText(`invited you to`).count()); i++) {
        await page.waitForTimeout(250);
        await page.goto("/settings/outbox");
      }
      expect(await page.locator('a[href*="/invite/"]').count()).toBeGreaterThan(0);
      expect(await page.locator('a[href*="/verify-email?token="]').count()).toBe(0);
      expect(await page.locator("body").textContent()).not.toContain("/verify-email?token=");
      await screenshot(page, `${mode}-outbox`);

      // The teammate opens the link in their own browser and joins by creating an account.
      const mate = await newPage(chromium.browser, { javaScriptEnabled, baseURL });
      await mate.page.goto(link);
      await mate.page.getByRole("link", { name: "Create an account to join" }).click();
      await mate.page.getByLabel("Full name").fill("Dorothy Vaughan");
      await mate.page.getByLabel("Work e-mail").fill(invitee);
      await mate.page.getByLabel("Password").fill("Fortran-Team-1961");
      await mate.page.getByRole("button", { name: "Create account" }).click();
      await mate.page.waitForURL(/\/(home|onboarding)/);
      const me = await mate.page.request.get("/api/auth/me");
      expect((await me.json()).organization.name).toBe("Katherine Johnson's workspace");

      expect(owner.errors).toEqual([]);
      expect(mate.errors).toEqual([]);
      await owner.context.close();
      await mate.context.close();
    });
  });
}
