import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { sendWeeklyDigests } from "~/domain/notifications/digest.server";
import { notifyUsers } from "~/domain/notifications/notify.server";
import { issueUnsubscribeLink } from "~/domain/notifications/unsubscribe.server";
import { nextRuns } from "~/jobs/scheduler.server";
import { nowIso, sha256 } from "~/utils/ids.server";
import { TestClient, signedUpClient } from "../support/client";
import { expectError } from "../support/org";

const anonymous = () => new TestClient("10.88.0.1");
const prefs = async (client: TestClient) => (await client.get("/api/user/notification-preferences")).body;

describe("POST /api/unsubscribe", () => {
  it("turns the token's category off without sign-in, and the token works once", async () => {
    const account = await signedUpClient({ name: "Una Unsub" });
    await notifyUsers(db, [account.user.id], { orgId: account.organization.id, type: "mention", title: "You were mentioned" });
    const mail = await db
      .selectFrom("emails")
      .selectAll()
      .where("toAddress", "=", account.email)
      .where("kind", "=", "notification.mention")
      .executeTakeFirstOrThrow();
    const token = decodeURIComponent(/unsubscribe\?token=([^\s"&<]+)/.exec(mail.text)![1]!);
    expect(await db.selectFrom("unsubscribeTokens").select("id").where("tokenHash", "=", token).executeTakeFirst()).toBeUndefined();
    const res = await anonymous().post("/api/unsubscribe", { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ success: true, category: "commentMentions" });
    expect((await prefs(account.client)).commentMentions).toBe(false);
    expect((await prefs(account.client)).emailNotifications).toBe(true);
    expectError(await anonymous().post("/api/unsubscribe", { token }), 401, "INVALID_TOKEN");
  });

  it("can turn all e-mail off; tampered → 401, expired → 410, bad body → 400", async () => {
    const account = await signedUpClient({ name: "Ed Expired" });
    const { token } = await issueUnsubscribeLink(db, account.user.id, "projectUpdates");
    expectError(await anonymous().post("/api/unsubscribe", { token: `${token}x` }), 401, "INVALID_TOKEN");
    expectError(await anonymous().post("/api/unsubscribe", { token, category: "everything" }), 400, "VALIDATION_ERROR");
    expectError(await anonymous().post("/api/unsubscribe", {}), 400, "VALIDATION_ERROR");
    const ok = await anonymous().post("/api/unsubscribe", { token, category: "emailNotifications" });
    expect(ok.status, ok.text).toBe(200);
    expect(await prefs(account.client)).toMatchObject({ emailNotifications: false, projectUpdates: true });

    const old = await issueUnsubscribeLink(db, account.user.id, "teamActivity");
    await db
      .updateTable("unsubscribeTokens")
      .set({ expiresAt: nowIso(new Date(Date.now() - 1000)) })
      .where("tokenHash", "=", sha256(old.token))
      .execute();
    expectError(await anonymous().post("/api/unsubscribe", { token: old.token }), 410, "TOKEN_EXPIRED");
    expect((await prefs(account.client)).teamActivity).toBe(true);
  });
});

describe("weekly digest", () => {
  it("e-mails opted-in users with unread notifications once, and skips the others", async () => {
    const keen = await signedUpClient({ name: "Kim Keen" });
    const quiet = await signedUpClient({ name: "Quentin Quiet" });
    const empty = await signedUpClient({ name: "Emma Empty" });
    await keen.client.patch("/api/user/notification-preferences", { weeklyDigest: true });
    await empty.client.patch("/api/user/notification-preferences", { weeklyDigest: true });
    for (const u of [keen, quiet]) {
      await notifyUsers(db, [u.user.id], { orgId: u.organization.id, type: "assignment", title: "Assigned: Roadmap", email: false });
    }
    expect(await sendWeeklyDigests()).toBe(1);
    const digest = await db.selectFrom("emails").selectAll().where("kind", "=", "notification.digest").execute();
    expect(digest.map((d) => d.toAddress)).toEqual([keen.email]);
    expect(digest[0]!.text).toContain("Assigned: Roadmap");
    expect(digest[0]!.text).toMatch(/unsubscribe\?token=/);
    expect(await sendWeeklyDigests()).toBe(0); // replayed job: no second e-mail
  });

  it("is scheduled for Monday 08:00 UTC", () => {
    const [run] = nextRuns(new Date("2025-01-01T00:00:00Z"));
    expect(run!.job).toBe("notifications.weekly-digest");
    expect(run!.nextRun?.toISOString()).toBe("2025-01-06T08:00:00.000Z");
  });
});
