import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailbox } from "../support/smtp";

/**
 * Where mail is delivered (SMTP_URL set, a loopback SMTP server as the
 * mailboxes): the invitation token was mailed to the invited address, so
 * holding it proves the address. Accepting it from an account with that
 * address confirms the address and joins, as signing up with it does; an
 * account with any other address is refused.
 */

// config() is read once; SMTP_URL must be set before the first app import.
const mailbox = await startMailbox();
process.env.SMTP_URL = mailbox.url;
const { db } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/worker.server");
(await import("~/jobs/handlers.server")).registerBackgroundWork();
const { GOOD_PASSWORD, signedUpClient, TestClient, uniqueEmail } = await import("../support/client");
const { expectError, setPlan } = await import("../support/org");

afterAll(() => mailbox.close());

let owner: Awaited<ReturnType<typeof signedUpClient>>;
beforeAll(async () => {
  owner = await signedUpClient({ name: "Sam Smtp" });
  await setPlan(owner.organization.id, "pro");
});

/** Delivers every queued message to the loopback mailboxes. */
async function deliver() {
  while ((await runDueJobs()) > 0);
}

async function mailedToken(address: string) {
  await deliver();
  const link = mailbox.link(address, "/invite/");
  expect(link).toBeTruthy();
  return decodeURIComponent(link!.split("/invite/")[1]!);
}

const membership = (userId: string) =>
  db.selectFrom("memberships").select("role").where("orgId", "=", owner.organization.id).where("userId", "=", userId).execute();

describe("accepting an invitation with SMTP", () => {
  it("a signed-in invitee with an unconfirmed address joins with the mailed token, which confirms the address", async () => {
    const carol = uniqueEmail("carol");
    expect((await owner.client.post("/api/invitations", { email: carol, role: "admin" })).status).toBe(201);
    const invitee = await signedUpClient({ email: carol, name: "Carol" });
    expect((await invitee.client.get("/api/auth/me")).body.user.emailVerified).toBe(false);
    const token = await mailedToken(carol);

    const accepted = await invitee.client.post("/api/invitations/accept", { token });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.organization.id).toBe(owner.organization.id);
    expect(await membership(invitee.user.id)).toEqual([{ role: "admin" }]);
    const me = await invitee.client.get("/api/auth/me");
    expect(me.body.user.emailVerified).toBe(true);
    expect(me.body.organization.id).toBe(owner.organization.id);
    // The confirmation is in the audit log of the organization joined.
    const audit = await db
      .selectFrom("auditLogs")
      .select(["action", "metadata"])
      .where("orgId", "=", owner.organization.id)
      .where("actorId", "=", invitee.user.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["auth.email_verified", "invitation.accepted"]));
  });

  it("an account with another address is refused, confirmed or not, and the invitation stays usable", async () => {
    const erin = uniqueEmail("erin");
    await owner.client.post("/api/invitations", { email: erin, role: "member" });
    const token = await mailedToken(erin);
    // Someone the link leaked to, signed in with their own account.
    const other = await signedUpClient({ name: "Mallory" });
    const refused = await other.client.post("/api/invitations/accept", { token });
    expectError(refused, 403, "FORBIDDEN");
    expect(refused.body.error).toContain(erin);
    expect(await membership(other.user.id)).toEqual([]);
    expect((await other.client.get("/api/auth/me")).body.user.emailVerified).toBe(false);
    expect((await db.selectFrom("invitations").select("status").where("email", "=", erin).executeTakeFirstOrThrow()).status).toBe("pending");
  });

  it("signing up with the mailed invitation token confirms the address and joins", async () => {
    const dana = uniqueEmail("dana");
    await owner.client.post("/api/invitations", { email: dana, role: "member" });
    await deliver();
    const token = decodeURIComponent(mailbox.link(dana, "/invite/")!.split("/invite/")[1]!);
    const res = await new TestClient("10.88.0.1").post("/api/auth/register", { name: "Dana", email: dana, password: GOOD_PASSWORD, inviteToken: token });
    expect(res.status, res.text).toBe(201);
    expect(res.body.user.emailVerified).toBe(true);
    expect(res.body.organization.id).toBe(owner.organization.id);
  });
});
