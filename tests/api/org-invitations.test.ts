import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { GOOD_PASSWORD, TestClient, signedUpClient, uniqueEmail } from "../support/client";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";

const INV = "/api/invitations";

/** The raw token from the last invitation e-mail sent to `to`. */
async function tokenSentTo(to: string) {
  const mail = await db
    .selectFrom("emails")
    .selectAll()
    .where("toAddress", "=", to)
    .where("kind", "=", "invitation")
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
  const match = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail[0]?.text ?? "");
  expect(match, "invitation e-mail with a link").not.toBeNull();
  return decodeURIComponent(match![1]!);
}

let owner: Account;
let member: Account;
let orgId: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olga Owner" });
  orgId = owner.organization.id;
  await setPlan(orgId, "starter");
  member = await joinOrg(orgId, "member", "Mia Member");
});

describe("creating and listing invitations", () => {
  it("creates an invitation (201), mails a link and lists it as pending; members may not", async () => {
    const email = uniqueEmail("invitee");
    const res = await owner.client.post(INV, { email, role: "admin", message: "Join us" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.invitation).toMatchObject({ email, role: "admin", message: "Join us", status: "pending", expired: false });
    expect(await tokenSentTo(email)).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const list = await owner.client.get(INV);
    expect(list.body.invitations.map((i: any) => i.email)).toContain(email);
    const stored = await db.selectFrom("invitations").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    const ev = await db.selectFrom("events").selectAll().where("name", "=", "invitation.created").where("orgId", "=", orgId).execute();
    expect(ev.some((e) => JSON.parse(e.data).email === email)).toBe(true);
    expectError(await member.client.get(INV), 403, "FORBIDDEN");
    expectError(await member.client.post(INV, { email: uniqueEmail(), role: "member" }), 403, "FORBIDDEN");
  });

  it("validates e-mail and role, and refuses inviting an existing member (409)", async () => {
    const bad = await owner.client.post(INV, { email: "nope", role: "owner" });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.details.map((d: any) => d.path).sort()).toEqual(["email", "role"]);
    expectError(await owner.client.post(INV, { email: member.email, role: "viewer" }), 409, "CONFLICT");
  });

  it("counts members plus open invitations against the plan: 403 LIMIT_REACHED, metric members", async () => {
    const free = await signedUpClient();
    await joinOrg(free.organization.id, "member", "Second");
    expect((await free.client.post(INV, { email: uniqueEmail(), role: "member" })).status).toBe(201);
    const over = await free.client.post(INV, { email: uniqueEmail(), role: "member" });
    expectError(over, 403, "LIMIT_REACHED");
    expect(over.body.metric).toBe("members");
  });
});

describe("verify, accept, resend, cancel", () => {
  it("verifies publicly and lets the matching signed-in user accept once", async () => {
    const invitee = await signedUpClient({ name: "Ivy Invitee" });
    await owner.client.post(INV, { email: invitee.email, role: "viewer" });
    const token = await tokenSentTo(invitee.email);
    const anon = new TestClient("10.77.0.1");
    const v = await anon.get(`${INV}/verify?token=${encodeURIComponent(token)}`);
    expect(v.status, v.text).toBe(200);
    expect(v.body).toMatchObject({ valid: true, organization: { id: orgId }, email: invitee.email, role: "viewer", hasAccount: true });
    expectError(await anon.get(`${INV}/verify?token=bogus`), 404, "NOT_FOUND");
    expectError(await anon.post(`${INV}/accept`, { token }), 401, "UNAUTHORIZED");
    expectError(await member.client.post(`${INV}/accept`, { token }), 403, "FORBIDDEN");
    expectError(await (await signedUpClient()).client.post(`${INV}/accept`, { token }), 403, "FORBIDDEN");
    const ok = await invitee.client.post(`${INV}/accept`, { token });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.organization).toMatchObject({ id: orgId, role: "viewer" });
    expect((await invitee.client.get("/api/auth/me")).body.organization.id).toBe(orgId);
    expectError(await invitee.client.post(`${INV}/accept`, { token }), 409, "CONFLICT");
    expectError(await anon.get(`${INV}/verify?token=${encodeURIComponent(token)}`), 404, "NOT_FOUND");
    const accepted = await db.selectFrom("events").selectAll().where("name", "=", "invitation.accepted").where("orgId", "=", orgId).execute();
    expect(accepted.some((e) => JSON.parse(e.data).userId === invitee.user.id)).toBe(true);
  });

  it("lets a new user register with inviteToken", async () => {
    const email = uniqueEmail("newbie");
    await owner.client.post(INV, { email, role: "member" });
    const token = await tokenSentTo(email);
    const fresh = new TestClient("10.77.0.2");
    const reg = await fresh.post("/api/auth/register", { name: "New Bie", email, password: GOOD_PASSWORD, inviteToken: token });
    expect(reg.status, reg.text).toBe(201);
    expect(reg.body.organization.id).toBe(orgId);
    expect(reg.body.organization.role).toBe("member");
    // Joining through registration is audited like an accept while signed in.
    const audit = await db
      .selectFrom("auditLogs")
      .selectAll()
      .where("orgId", "=", orgId)
      .where("action", "=", "invitation.accepted")
      .where("actorEmail", "=", email)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ category: "team", targetType: "invitation", ip: "10.77.0.2" });
  });

  it("refuses an expired token with 410 TOKEN_EXPIRED", async () => {
    const email = uniqueEmail("late");
    const created = await owner.client.post(INV, { email, role: "member" });
    const token = await tokenSentTo(email);
    await db.updateTable("invitations").set({ expiresAt: "2000-01-01T00:00:00.000Z" }).where("id", "=", created.body.invitation.id).execute();
    expectError(await new TestClient("10.77.0.3").get(`${INV}/verify?token=${encodeURIComponent(token)}`), 410, "TOKEN_EXPIRED");
  });

  it("resend issues a new token (old one stops working); cancel stops the link", async () => {
    const email = uniqueEmail("resend");
    const created = await owner.client.post(INV, { email, role: "member" });
    const id = created.body.invitation.id;
    const first = await tokenSentTo(email);
    const again = await owner.client.post(`${INV}/${id}`, {});
    expect(again.status, again.text).toBe(200);
    const second = await tokenSentTo(email);
    expect(second).not.toBe(first);
    const anon = new TestClient("10.77.0.4");
    expectError(await anon.get(`${INV}/verify?token=${encodeURIComponent(first)}`), 404, "NOT_FOUND");
    expect((await anon.get(`${INV}/verify?token=${encodeURIComponent(second)}`)).status).toBe(200);
    expectError(await member.client.delete(`${INV}/${id}`), 403, "FORBIDDEN");
    const other = await signedUpClient();
    expectError(await other.client.delete(`${INV}/${id}`), 404, "NOT_FOUND");
    expect((await owner.client.delete(`${INV}/${id}`)).body).toEqual({ success: true });
    expectError(await anon.get(`${INV}/verify?token=${encodeURIComponent(second)}`), 404, "NOT_FOUND");
    expectError(await owner.client.delete(`${INV}/${id}`), 404, "NOT_FOUND");
    expect((await owner.client.get(INV)).body.invitations.map((i: any) => i.id)).not.toContain(id);
  });

  it("resend answers the inviter's name: the admin who resent it, as the e-mail, the list and the invite page say", async () => {
    const admin = await joinOrg(orgId, "admin", "Ada Admin");
    const email = uniqueEmail("resent-by");
    const created = await owner.client.post(INV, { email, role: "viewer" });
    expect(created.body.invitation.invitedBy).toEqual({ id: owner.user.id, name: "Olga Owner" });
    const id = created.body.invitation.id;

    const again = await admin.client.post(`${INV}/${id}`);
    expect(again.status, again.text).toBe(200);
    expect(again.body.invitation.invitedBy).toEqual({ id: admin.user.id, name: "Ada Admin" });
    const listed = (await owner.client.get(INV)).body.invitations.find((i: any) => i.id === id);
    expect(listed.invitedBy).toEqual({ id: admin.user.id, name: "Ada Admin" });
    const mail = await db
      .selectFrom("emails")
      .select("text")
      .where("toAddress", "=", email)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain("Ada Admin");
    const verify = await new TestClient("10.77.0.5").get(`${INV}/verify?token=${encodeURIComponent(await tokenSentTo(email))}`);
    expect(verify.body.invitedBy).toBe("Ada Admin");
    // The original inviter is kept in the audit log.
    const audit = await db
      .selectFrom("auditLogs")
      .select("metadata")
      .where("action", "=", "invitation.resent")
      .where("targetId", "=", id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.metadata!).previousInvitedById).toBe(owner.user.id);

    // An invitation whose inviter's account is gone still answers a name when resent.
    await db.updateTable("invitations").set({ invitedById: null }).where("id", "=", id).execute();
    const orphan = await owner.client.post(`${INV}/${id}`);
    expect(orphan.body.invitation.invitedBy).toEqual({ id: owner.user.id, name: "Olga Owner" });
  });
});
