import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { notifyUsers } from "~/domain/notifications/notify.server";
import { issueUnsubscribeLink } from "~/domain/notifications/unsubscribe.server";
import { ORIGIN, TestClient, signedUpClient } from "../support/client";
import { pageText } from "../support/page";

/** Posts a form like a browser without JavaScript. */
const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, path: string, fields: Record<string, string>) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM_HEADERS });

const text = pageText;

const unread = async (userId: string) =>
  (await db.selectFrom("notifications").select("id").where("userId", "=", userId).where("readAt", "is", null).execute()).length;

describe("notification pages", () => {
  it("shows the bell count, lists notifications and handles read, delete and mark-all without JavaScript", async () => {
    const account = await signedUpClient({ name: "Bea Bell" });
    const empty = await account.client.get("/notifications");
    expect(empty.status).toBe(200);
    expect(text(empty)).toContain("No notifications yet");
    expect(empty.text).toContain('aria-label="Notifications, none unread"');

    for (const title of ["First thing", "Second thing", "Third thing"]) {
      await notifyUsers(db, [account.user.id], { orgId: account.organization.id, type: "assignment", title, link: "/projects", email: false });
    }
    const page = await account.client.get("/notifications");
    expect(page.text).toContain('aria-label="Notifications, 3 unread"');
    expect(text(page)).toContain("Notifications (3)");
    expect(text(page)).toContain("Second thing");
    const ids = await db.selectFrom("notifications").select(["id", "title"]).where("userId", "=", account.user.id).execute();
    const second = ids.find((n) => n.title === "Second thing")!.id;

    const read = await postForm(account.client, "/notifications", { intent: "read", notificationId: second });
    expect(read.status).toBe(302);
    expect(await unread(account.user.id)).toBe(2);

    const del = await postForm(account.client, "/notifications", { intent: "delete", notificationId: second });
    expect(del.status).toBe(302);
    expect(text(await account.client.get("/notifications"))).not.toContain("Second thing");

    const open = await postForm(account.client, "/notifications", { intent: "open", notificationId: ids.find((n) => n.title === "First thing")!.id });
    expect(open.status).toBe(302);
    expect(open.headers.get("Location")).toBe("/projects");

    const other = await signedUpClient({ name: "Nosy Neighbour" });
    const nosy = await postForm(other.client, "/notifications", { intent: "delete", notificationId: ids.find((n) => n.title === "Third thing")!.id });
    expect(nosy.status).toBe(404);

    await postForm(account.client, "/notifications", { intent: "mark-all-read" });
    expect(await unread(account.user.id)).toBe(0);
    expect(text(await account.client.get("/notifications?unread=true"))).toContain("No unread notifications");
  });

  it("saves preferences from the checkbox form (unchecked boxes turn off)", async () => {
    const account = await signedUpClient({ name: "Cara Checkbox" });
    const page = await account.client.get("/settings/notifications");
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<label[^>]*for="pref-weeklyDigest"/);
    const res = await postForm(account.client, "/settings/notifications", {
      emailNotifications: "on",
      projectUpdates: "on",
      commentMentions: "on",
      weeklyDigest: "on",
    });
    expect(res.status).toBe(302);
    const prefs = (await account.client.get("/api/user/notification-preferences")).body;
    expect(prefs).toMatchObject({ weeklyDigest: true, teamActivity: false, securityAlerts: false, projectUpdates: true });
  });

  it("unsubscribe page works without login: GET confirms, POST turns the category (or everything) off", async () => {
    const account = await signedUpClient({ name: "Ulla Unsub" });
    const { token } = await issueUnsubscribeLink(db, account.user.id, "teamActivity");
    const anon = new TestClient("10.89.0.1");
    const page = await anon.get(`/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    expect(text(page)).toContain(account.email);
    expect(text(page)).toContain("team activity");
    const done = await postForm(anon, "/unsubscribe", { token, scope: "all" });
    expect(done.status, done.text).toBe(200);
    expect(text(done)).toContain("we will not e-mail you any notifications");
    expect((await account.client.get("/api/user/notification-preferences")).body.emailNotifications).toBe(false);
    const again = await anon.get(`/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(text(again)).toContain("invalid or has already been used");
    const replay = await postForm(anon, "/unsubscribe", { token, scope: "category" });
    expect(replay.status).toBe(401);
  });
});
