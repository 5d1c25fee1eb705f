import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { notifyUsers } from "~/domain/notifications/notify.server";
import { notifyFromEvent } from "~/domain/notifications/listeners.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { runDueJobs } from "~/jobs/worker.server";
import { TestClient, signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";

registerBackgroundWork();

let owner: Account;
let member: Account;
let other: Account;
let orgId: string;

async function newProject(client: TestClient, name: string) {
  const res = await client.post("/api/projects", { name });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const list = async (client: TestClient, query = "") => {
  const res = await client.get(`/api/notifications${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { notifications: any[]; unreadCount: number; total: number };
};

const emailsTo = (address: string) =>
  db.selectFrom("emails").selectAll().where("toAddress", "=", address).where("kind", "like", "notification.%").orderBy("createdAt").execute();

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olivia Owner" });
  orgId = owner.organization.id;
  await setPlan(orgId, "pro");
  member = await joinOrg(orgId, "member", "Mia Member");
  other = await signedUpClient({ name: "Otto Other" });
});

async function seed(userId: string, n: number, type = "comment") {
  for (let i = 0; i < n; i++) {
    await notifyUsers(db, [userId], { orgId, type, title: `Note ${i}`, link: "/home", email: false });
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe("notification list and state", () => {
  it("lists newest first with unreadCount, total, limit/offset and the unread filter", async () => {
    const account = await joinOrg(orgId, "member", "Lisa List");
    expect(await list(account.client)).toEqual({ notifications: [], unreadCount: 0, total: 0 });
    await seed(account.user.id, 3);
    const all = await list(account.client);
    expect(all.total).toBe(3);
    expect(all.unreadCount).toBe(3);
    expect(all.notifications.map((n) => n.title)).toEqual(["Note 2", "Note 1", "Note 0"]);
    expect(all.notifications[0]).toMatchObject({ type: "comment", read: false, readAt: null, link: "/home" });
    const page = await list(account.client, "?limit=1&offset=1");
    expect(page.notifications.map((n) => n.title)).toEqual(["Note 1"]);
    expect(page.total).toBe(3);

    const first = all.notifications[0].id;
    const patched = await account.client.patch(`/api/notifications/${first}`, { read: true });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.notification).toMatchObject({ id: first, read: true });
    const unread = await list(account.client, "?unread=true");
    expect(unread.total).toBe(2);
    expect(unread.unreadCount).toBe(2);
    expect(unread.notifications.every((n) => !n.read)).toBe(true);

    const back = await account.client.patch(`/api/notifications/${first}`, { read: false });
    expect(back.body.notification.read).toBe(false);

    const del = await account.client.delete(`/api/notifications/${first}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect((await list(account.client)).total).toBe(2);

    const all2 = await account.client.post("/api/notifications/mark-all-read", {});
    expect(all2.status, all2.text).toBe(200);
    expect(all2.body).toEqual({ success: true, updated: 2 });
    expect((await list(account.client)).unreadCount).toBe(0);
  });

  it("validates limit, the PATCH body and hides other users' notifications behind 404", async () => {
    const account = await joinOrg(orgId, "member", "Val Valid");
    await seed(account.user.id, 1);
    const [n] = (await list(account.client)).notifications;
    expectError(await account.client.get("/api/notifications?limit=500"), 400, "VALIDATION_ERROR");
    expectError(await account.client.patch(`/api/notifications/${n.id}`, { read: "yes" }), 400, "VALIDATION_ERROR");
    expectError(await account.client.patch(`/api/notifications/${n.id}`, {}), 400, "VALIDATION_ERROR");
    expectError(await other.client.patch(`/api/notifications/${n.id}`, { read: true }), 404, "NOT_FOUND");
    expectError(await other.client.delete(`/api/notifications/${n.id}`), 404, "NOT_FOUND");
    expect((await list(account.client)).notifications[0].read).toBe(false);
    expectError(await new TestClient("10.77.0.1").get("/api/notifications"), 401, "UNAUTHORIZED");
  });
});

describe("preferences", () => {
  it("defaults to everything on except the weekly digest; PATCH takes a subset and refuses unknown keys", async () => {
    const account = await signedUpClient({ name: "Pia Prefs" });
    const got = await account.client.get("/api/user/notification-preferences");
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      emailNotifications: true,
      projectUpdates: true,
      teamActivity: true,
      commentMentions: true,
      exportNotifications: true,
      billingAlerts: true,
      weeklyDigest: false,
      securityAlerts: true,
    });
    const patched = await account.client.patch("/api/user/notification-preferences", { weeklyDigest: true, teamActivity: false });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ weeklyDigest: true, teamActivity: false, projectUpdates: true });
    expect((await account.client.get("/api/user/notification-preferences")).body.teamActivity).toBe(false);
    expectError(await account.client.patch("/api/user/notification-preferences", { smsAlerts: true }), 400, "VALIDATION_ERROR");
    expectError(await account.client.patch("/api/user/notification-preferences", { projectUpdates: "no" }), 400, "VALIDATION_ERROR");
  });

  it("a category turned off gets neither in-app nor e-mail; the master switch stops only e-mail", async () => {
    const account = await joinOrg(orgId, "member", "Quinn Quiet");
    await account.client.patch("/api/user/notification-preferences", { teamActivity: false, emailNotifications: false });
    await notifyUsers(db, [account.user.id], { orgId, type: "comment", title: "muted" });
    await notifyUsers(db, [account.user.id], { orgId, type: "assignment", title: "kept" });
    expect((await list(account.client)).notifications.map((n) => n.title)).toEqual(["kept"]);
    expect(await emailsTo(account.email)).toEqual([]);
  });
});

describe("notifications from events", () => {
  it("comment.created notifies creator and assignee (not the actor) and mentioned members, once even if replayed", async () => {
    const projectId = await newProject(owner.client, "Checkout revamp");
    const third = await joinOrg(orgId, "member", "Tom Third");
    expect((await owner.client.patch(`/api/projects/${projectId}/assign`, { assignedToId: member.user.id })).status).toBe(200);
    await runDueJobs();
    const before = (await list(member.client)).total;
    const res = await member.client.post(`/api/projects/${projectId}/comments`, { content: `Looks good @${third.email} thanks` });
    expect(res.status, res.text).toBe(201);
    await runDueJobs();
    const ownerNotes = (await list(owner.client)).notifications.filter((n) => n.type === "comment");
    expect(ownerNotes).toHaveLength(1);
    expect(ownerNotes[0].title).toBe("Mia Member commented on Checkout revamp");
    expect(ownerNotes[0].link).toContain(`/projects/${projectId}`);
    expect((await list(member.client)).total).toBe(before); // the actor hears nothing
    const mention = (await list(third.client)).notifications;
    expect(mention.map((n) => n.type)).toEqual(["mention"]);

    const event = await db.selectFrom("events").selectAll().where("name", "=", "comment.created").orderBy("createdAt", "desc").executeTakeFirstOrThrow();
    await notifyFromEvent({ ...event, name: "comment.created", data: JSON.parse(event.data) });
    expect((await list(third.client)).total).toBe(1);
    expect((await list(owner.client)).notifications.filter((n) => n.type === "comment")).toHaveLength(1);
  });

  it("a mention by name (@Full Name or a unique @First) notifies that member, with the comment as its text", async () => {
    const projectId = await newProject(owner.client, "Search tuning");
    const named = await joinOrg(orgId, "member", "Nadia Named");
    const res = await member.client.post(`/api/projects/${projectId}/comments`, { content: "@Nadia Named can you check the ranking? cc @nadia" });
    expect(res.status, res.text).toBe(201);
    await runDueJobs();
    const notes = (await list(named.client)).notifications;
    expect(notes.map((n) => n.type)).toEqual(["mention"]);
    expect(notes[0].body).toContain("can you check the ranking?");
  });

  it("assignment and status change notify the people concerned; e-mail carries an unsubscribe link", async () => {
    const projectId = await newProject(owner.client, "Billing v2");
    await owner.client.patch(`/api/projects/${projectId}/assign`, { assignedToId: member.user.id });
    await runDueJobs();
    const assigned = (await list(member.client)).notifications.find((n) => n.type === "assignment" && n.data.projectId === projectId);
    expect(assigned?.title).toBe("Olivia Owner assigned Billing v2 to you");
    const mails = await emailsTo(member.email);
    const mail = mails.find((m) => m.subject === assigned.title);
    expect(mail?.text).toMatch(/\/unsubscribe\?token=/);

    const res = await member.client.patch(`/api/projects/${projectId}/status`, { status: "IN_PROGRESS" });
    expect(res.status, res.text).toBe(200);
    await runDueJobs();
    const status = (await list(owner.client)).notifications.find((n) => n.type === "status_change" && n.data.projectId === projectId);
    expect(status?.title).toBe("Mia Member moved Billing v2 to IN_PROGRESS");
    expect((await list(member.client)).notifications.some((n) => n.type === "status_change" && n.data.projectId === projectId)).toBe(false);
  });

  it("a project created with an assignee notifies them; share.enabled notifies the creator", async () => {
    const res = await owner.client.post("/api/projects", { name: "Search facelift", assignedToId: member.user.id });
    expect(res.status, res.text).toBe(201);
    const projectId = res.body.id as string;
    await runDueJobs();
    const mine = (await list(member.client)).notifications.filter((n) => n.data.projectId === projectId);
    expect(mine.map((n) => n.type)).toEqual(["assignment"]);
    const share = await member.client.post(`/api/projects/${projectId}/share`, {});
    expect(share.status, share.text).toBeLessThan(300);
    await runDueJobs();
    const ownerShare = (await list(owner.client)).notifications.filter((n) => n.type === "share" && n.data.projectId === projectId);
    expect(ownerShare).toHaveLength(1);
    expect((await list(member.client)).notifications.some((n) => n.type === "share")).toBe(false);
  });

  it("invitation.created notifies an invitee who already has an account", async () => {
    await notifyFromEvent({
      id: "evt-invite-1",
      orgId,
      name: "invitation.created",
      actorId: owner.user.id,
      createdAt: new Date().toISOString(),
      data: { invitationId: "inv-1", email: other.email.toUpperCase(), role: "member" },
    });
    const notes = (await list(other.client)).notifications;
    expect(notes.map((n) => n.type)).toContain("invitation");
  });
});
