import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { GOOD_PASSWORD, signedUpClient, TestClient, uniqueEmail } from "../support/client";
import { pageText } from "../support/page";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";

/**
 * Finding 1 of the security review, in the default install (no SMTP_URL):
 * an outsider who registers the invitee's address must not obtain the
 * invitation, nor any other token mailed to that address.
 */

let owner: Account;
beforeAll(async () => {
  owner = await signedUpClient({ name: "Olga Owner" });
  await setPlan(owner.organization.id, "pro");
});

const outboxPage = async (account: Account) => {
  const res = await account.client.get("/settings/outbox");
  expect(res.status).toBe(200);
  return res.text;
};

describe("joining another organization by registering the invitee's address", () => {
  it("the outsider's outbox never shows the invitation, nor their own confirmation link", async () => {
    const carol = uniqueEmail("carol");
    const invited = await owner.client.post("/api/invitations", { email: carol, role: "admin" });
    expect(invited.status, invited.text).toBe(201);

    const outsider = await signedUpClient({ email: carol, name: "Not Carol" });
    const page = await outboxPage(outsider);
    expect(page).not.toContain("/invite/");
    expect(page).not.toContain("verify-email?token=");
    // Their own confirmation message is listed, its link withheld.
    expect(page).toContain("Confirm your e-mail");
    expect(page).toContain("not shown in the app");
    // The owner sees the invitation (theirs to hand over), not the outsider's confirmation.
    const ownerPage = await outboxPage(owner);
    expect(ownerPage).toContain("/invite/");
    expect(ownerPage).not.toContain("verify-email?token=");

    // The outsider is not in the owner's organization and cannot list its projects.
    await owner.client.post("/api/projects", { name: "Secret roadmap" });
    const orgs = await outsider.client.get("/api/user/organizations");
    expect(JSON.stringify(orgs.body)).not.toContain(owner.organization.id);
    const projects = await outsider.client.get("/api/projects");
    expect(JSON.stringify(projects.body)).not.toContain("Secret roadmap");
  });

  it("a member does not read the organization's invitations; an admin does", async () => {
    const dave = uniqueEmail("dave");
    expect((await owner.client.post("/api/invitations", { email: dave, role: "member" })).status).toBe(201);
    const member = await joinOrg(owner.organization.id, "member", "Mia Member");
    const admin = await joinOrg(owner.organization.id, "admin", "Ada Admin");
    expect(await outboxPage(member)).not.toContain("/invite/");
    expect(await outboxPage(admin)).toContain(dave);
  });

  it("an account does not read mail sent to its address before it existed", async () => {
    const erin = uniqueEmail("erin");
    const orgId = owner.organization.id;
    const { queueEmail } = await import("~/domain/mail/mail.server");
    await db
      .transaction()
      .execute((trx) => queueEmail(trx, { to: erin, orgId: null, kind: "notification.digest", subject: "Your digest", text: "Earlier secret digest" }));
    const account = await signedUpClient({ email: erin });
    await db
      .transaction()
      .execute((trx) =>
        queueEmail(trx, { to: erin, orgId: account.organization.id, kind: "notification.mention", subject: "Mentioned", text: "A fresh mention" }),
      );
    const page = await outboxPage(account);
    expect(page).toContain("A fresh mention");
    expect(page).not.toContain("Earlier secret digest");
    expect(orgId).not.toBe(account.organization.id);
  });
});

describe("GET /api/invitations/{invitationId}/link", () => {
  it("gives the inviting admin the link, which signs the invitee up into the organization with a confirmed address", async () => {
    const email = uniqueEmail("frank");
    const created = await owner.client.post("/api/invitations", { email, role: "member" });
    const id = created.body.invitation.id as string;
    const res = await owner.client.get(`/api/invitations/${id}/link`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.invitation).toMatchObject({ id, email, role: "member", invitedBy: { id: owner.user.id, name: "Olga Owner" } });
    expect(res.body.url).toMatch(/^http:\/\/localhost:3000\/invite\/[A-Za-z0-9_-]{40,}$/);
    // The same link as the e-mail carries (copying twice does not break the first copy).
    expect((await owner.client.get(`/api/invitations/${id}/link`)).body.url).toBe(res.body.url);
    const mail = await db.selectFrom("emails").select("text").where("toAddress", "=", email).where("kind", "=", "invitation").executeTakeFirstOrThrow();
    expect(mail.text).toContain(res.body.url);

    const token = res.body.url.split("/invite/")[1];
    const invitee = new TestClient("10.77.0.2");
    const joined = await invitee.post("/api/auth/register", { name: "Frank", email, password: GOOD_PASSWORD, inviteToken: token });
    expect(joined.status, joined.text).toBe(201);
    expect(joined.body.user.emailVerified).toBe(true);
    expect(joined.body.organization.id).toBe(owner.organization.id);
  });

  it("is for the inviting organization's owners and admins only", async () => {
    const created = await owner.client.post("/api/invitations", { email: uniqueEmail("gail"), role: "viewer" });
    const id = created.body.invitation.id as string;
    const member = await joinOrg(owner.organization.id, "member", "Max Member");
    expectError(await member.client.get(`/api/invitations/${id}/link`), 403, "FORBIDDEN");
    const stranger = await signedUpClient({ name: "Stranger" });
    expectError(await stranger.client.get(`/api/invitations/${id}/link`), 404, "NOT_FOUND");
    expectError(await new TestClient("10.77.0.3").get(`/api/invitations/${id}/link`), 401, "UNAUTHORIZED");
  });

  it("the invitations page shows the link to copy, with JavaScript off", async () => {
    const email = uniqueEmail("hana");
    const created = await owner.client.post("/api/invitations", { email, role: "member" });
    const form = new URLSearchParams({ intent: "link", invitationId: created.body.invitation.id });
    const res = await owner.client.call("POST", "/admin/invitations", {
      body: form,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect(pageText(res)).toContain(`Invitation link for ${email}`);
    expect(res.text).toMatch(/value="http:\/\/localhost:3000\/invite\/[A-Za-z0-9_-]{40,}"/);
  });
});

describe("a listed superadmin address", () => {
  it("gives no platform powers to an account that merely registered it", async () => {
    const { setEnv } = await import("../support/ai");
    const address = uniqueEmail("ops");
    setEnv({ SUPERADMIN_EMAILS: address });
    try {
      const squatter = await signedUpClient({ email: address });
      expect(squatter.user.isSuperadmin).toBe(false);
      expect((await squatter.client.get("/api/auth/me")).body.user.isSuperadmin).toBe(false);
      // Once the address is proven (here: as `npm run admin:create` or a confirmation would leave it), it is.
      await db.updateTable("users").set({ emailVerifiedAt: new Date().toISOString() }).where("id", "=", squatter.user.id).execute();
      expect((await squatter.client.get("/api/auth/me")).body.user.isSuperadmin).toBe(true);
    } finally {
      setEnv({ SUPERADMIN_EMAILS: undefined });
    }
  });
});

describe("the operator's outbox tool", () => {
  it("prints the withheld links to the operator, who holds the database anyway", async () => {
    const { outboxMessagesTo } = await import("~/ops/outbox.server");
    const account = await signedUpClient();
    const messages = await outboxMessagesTo(account.email.toUpperCase());
    expect(messages.find((m) => m.kind === "verify_email")?.text).toMatch(/verify-email\?token=/);
  });
});
