import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailbox } from "../support/smtp";

/**
 * Finding 1 where mail is delivered (SMTP_URL set, a loopback SMTP server as
 * the mailboxes): accepting an invitation into an existing account needs an
 * address the account has confirmed; signing up with the mailed token
 * confirms it.
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

describe("accepting an invitation with SMTP", () => {
  it("an unconfirmed account holding a leaked link cannot join; once it confirms its address it can", async () => {
    const carol = uniqueEmail("carol");
    expect((await owner.client.post("/api/invitations", { email: carol, role: "admin" })).status).toBe(201);
    const squatter = await signedUpClient({ email: carol, name: "Squatter" });
    await deliver();
    // Suppose the invitation link leaked to the squatter (forwarded, shoulder-surfed).
    const link = mailbox.link(carol, "/invite/");
    expect(link).toBeTruthy();
    const token = decodeURIComponent(link!.split("/invite/")[1]!);

    const refused = await squatter.client.post("/api/invitations/accept", { token });
    expectError(refused, 403, "FORBIDDEN");
    expect(refused.body.error).toContain("Confirm your e-mail address");
    expect(await db.selectFrom("memberships").select("id").where("orgId", "=", owner.organization.id).where("userId", "=", squatter.user.id).execute()).toEqual(
      [],
    );
    // The invitation is still usable by whoever proves the address.
    expect((await db.selectFrom("invitations").select("status").where("email", "=", carol).executeTakeFirstOrThrow()).status).toBe("pending");

    // Only the owner of the mailbox can confirm: the confirmation link went there.
    await deliver();
    const verify = mailbox.link(carol, "/verify-email?token=");
    expect(verify).toBeTruthy();
    const verifyToken = new URL(verify!).searchParams.get("token")!;
    expect((await squatter.client.get(`/api/auth/verify-email?token=${encodeURIComponent(verifyToken)}`)).body).toEqual({ verified: true });
    const accepted = await squatter.client.post("/api/invitations/accept", { token });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.organization.id).toBe(owner.organization.id);
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
