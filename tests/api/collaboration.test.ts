import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "#db/schema";
import { db } from "~/db.server";
import { addMembership } from "~/domain/orgs/orgs.server";
import { nowIso } from "~/utils/ids.server";
import { type ApiResult, signedUpClient, TestClient } from "../support/client";

type Account = Awaited<ReturnType<typeof signedUpClient>>;

function expectError(res: ApiResult, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ code });
  expect(typeof res.body.error).toBe("string");
}

let ip = 0;
/** A client with no session at all (share links, public review). */
const anonymous = () => new TestClient(`10.60.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`);

/** Registers a user and moves their session into `orgId` with `role`. */
async function joinOrg(orgId: string, role: Role, name: string) {
  const account = await signedUpClient({ name });
  await addMembership(db, orgId, account.user.id, role);
  await db.updateTable("sessions").set({ orgId }).where("userId", "=", account.user.id).execute();
  return account;
}

async function newProject(client: TestClient, name: string) {
  const res = await client.post("/api/projects", { name });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function events(name: string) {
  const rows = await db.selectFrom("events").selectAll().where("name", "=", name).orderBy("createdAt").execute();
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, any> }));
}

let owner: Account; // owner of org A, creates the projects
let admin: Account;
let member: Account; // member of org A who did not create the projects
let viewer: Account; // viewer of org A, no collaboration
let commenter: Account; // viewer of org A, commenter collaborator on `projectId`
let outsider: Account; // owner of org B
let orgA: string;
let projectId: string;
let otherProjectId: string;
let outsiderProjectId: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olivia Owner" });
  orgA = owner.organization.id;
  await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", orgA).execute();
  admin = await joinOrg(orgA, "admin", "Adam Admin");
  member = await joinOrg(orgA, "member", "Mia Member");
  viewer = await joinOrg(orgA, "viewer", "Vic Viewer");
  commenter = await joinOrg(orgA, "viewer", "Cora Commenter");
  outsider = await signedUpClient({ name: "Otto Outsider" });
  await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", outsider.organization.id).execute();
  projectId = await newProject(owner.client, "Checkout revamp");
  otherProjectId = await newProject(owner.client, "Payments API");
  outsiderProjectId = await newProject(outsider.client, "Elsewhere");
  const added = await owner.client.post(`/api/projects/${projectId}/collaborators`, { email: commenter.email, role: "commenter" });
  expect(added.status, added.text).toBe(201);
});

describe("access rules", () => {
  it("answers 404 on every endpoint to a user of another organization", async () => {
    const base = `/api/projects/${projectId}`;
    const c = outsider.client;
    const calls: Array<Promise<ApiResult>> = [
      c.get(`${base}/comments`),
      c.post(`${base}/comments`, { content: "hi" }),
      c.patch(`${base}/comments/x`, { content: "hi" }),
      c.delete(`${base}/comments/x`),
      c.get(`${base}/share`),
      c.post(`${base}/share`, {}),
      c.delete(`${base}/share`),
      c.get(`${base}/collaborators`),
      c.post(`${base}/collaborators`, { email: outsider.email, role: "viewer" }),
      c.delete(`${base}/collaborators/x`),
      c.get(`${base}/stakeholder-views`),
      c.post(`${base}/stakeholder-views`, { name: "CFO" }),
      c.delete(`${base}/stakeholder-views/x`),
      c.get(`${base}/links`),
      c.post(`${base}/links`, { url: "https://example.com" }),
      c.delete(`${base}/links/x`),
    ];
    for (const res of await Promise.all(calls)) expectError(res, 404, "NOT_FOUND");
  });

  it("answers 401 without a session", async () => {
    const anon = anonymous();
    expectError(await anon.get(`/api/projects/${projectId}/comments`), 401, "UNAUTHORIZED");
    expectError(await anon.post(`/api/projects/${projectId}/share`, {}), 401, "UNAUTHORIZED");
    expectError(await anon.get(`/api/projects/${projectId}/links`), 401, "UNAUTHORIZED");
  });

  it("hides the project from a viewer who does not collaborate on it (404)", async () => {
    const base = `/api/projects/${projectId}`;
    for (const path of ["comments", "share", "collaborators", "stakeholder-views", "links"]) {
      expectError(await viewer.client.get(`${base}/${path}`), 404, "NOT_FOUND");
    }
    expectError(await viewer.client.post(`${base}/comments`, { content: "hi" }), 404, "NOT_FOUND");
  });

  it("lets a member who did not create the project read and comment, but not manage (403)", async () => {
    const base = `/api/projects/${projectId}`;
    const c = member.client;
    expect((await c.get(`${base}/comments`)).status).toBe(200);
    expect((await c.get(`${base}/collaborators`)).status).toBe(200);
    expect((await c.get(`${base}/stakeholder-views`)).status).toBe(200);
    expect((await c.get(`${base}/links`)).status).toBe(200);
    const posted = await c.post(`${base}/comments`, { content: "Member note" });
    expect(posted.status, posted.text).toBe(201);
    expectError(await c.get(`${base}/share`), 403, "FORBIDDEN");
    expectError(await c.post(`${base}/share`, {}), 403, "FORBIDDEN");
    expectError(await c.delete(`${base}/share`), 403, "FORBIDDEN");
    expectError(await c.post(`${base}/collaborators`, { email: viewer.email, role: "viewer" }), 403, "FORBIDDEN");
    expectError(await c.post(`${base}/stakeholder-views`, { name: "CFO" }), 403, "FORBIDDEN");
    expectError(await c.post(`${base}/links`, { url: "https://example.com" }), 403, "FORBIDDEN");
    await owner.client.delete(`${base}/comments/${posted.body.comment.id}`);
  });

  it("lets a commenter collaborator comment but not manage", async () => {
    const base = `/api/projects/${projectId}`;
    const c = commenter.client;
    const posted = await c.post(`${base}/comments`, { content: "Commenter note" });
    expect(posted.status, posted.text).toBe(201);
    expect((await c.get(`${base}/comments`)).status).toBe(200);
    expectError(await c.get(`${base}/share`), 403, "FORBIDDEN");
    expectError(await c.post(`${base}/share`, {}), 403, "FORBIDDEN");
    expectError(await c.post(`${base}/collaborators`, { email: viewer.email, role: "viewer" }), 403, "FORBIDDEN");
    expectError(await c.post(`${base}/stakeholder-views`, { name: "CFO" }), 403, "FORBIDDEN");
    expectError(await c.post(`${base}/links`, { url: "https://example.com" }), 403, "FORBIDDEN");
    // The commenter collaboration covers this project only.
    expectError(await c.get(`/api/projects/${otherProjectId}/comments`), 404, "NOT_FOUND");
    expect((await c.delete(`${base}/comments/${posted.body.comment.id}`)).status).toBe(200);
  });

  it("lets a viewer collaborator read but not comment (403), and an editor collaborator manage", async () => {
    const p = await newProject(owner.client, "Roles");
    const v = await owner.client.post(`/api/projects/${p}/collaborators`, { email: viewer.email, role: "viewer" });
    expect(v.status).toBe(201);
    expect((await viewer.client.get(`/api/projects/${p}/comments`)).status).toBe(200);
    expectError(await viewer.client.post(`/api/projects/${p}/comments`, { content: "hi" }), 403, "FORBIDDEN");
    const e = await owner.client.post(`/api/projects/${p}/collaborators`, { email: member.email, role: "editor" });
    expect(e.status).toBe(201);
    const share = await member.client.post(`/api/projects/${p}/share`, {});
    expect(share.status, share.text).toBe(201);
  });
});

describe("comments", () => {
  let thread: any;
  let reply: any;

  it("creates a comment (201 {comment}) with activity and a comment.created event", async () => {
    const res = await owner.client.post(`/api/projects/${projectId}/comments`, {
      content: "Should checkout support wallets?",
      section: "goals",
      blockId: "b1",
    });
    expect(res.status, res.text).toBe(201);
    thread = res.body.comment;
    expect(thread).toMatchObject({
      content: "Should checkout support wallets?",
      parentId: null,
      section: "goals",
      blockId: "b1",
      mentions: [],
      user: { id: owner.user.id, name: "Olivia Owner", email: owner.email },
      editedAt: null,
      deleted: false,
    });
    const evt = (await events("comment.created")).find((e) => e.data.commentId === thread.id);
    expect(evt?.data).toEqual({ projectId, commentId: thread.id, parentId: null, section: "goals", mentionedUserIds: [] });
    const act = await owner.client.get(`/api/projects/${projectId}/activity`);
    expect(act.body.activities.some((a: any) => a.action === "comment.created" && a.data.commentId === thread.id)).toBe(true);
  });

  it("threads replies: a reply to a reply joins the top-level thread and inherits its anchor", async () => {
    const r1 = await member.client.post(`/api/projects/${projectId}/comments`, { content: "Yes", parentId: thread.id });
    expect(r1.status, r1.text).toBe(201);
    reply = r1.body.comment;
    expect(reply).toMatchObject({ parentId: thread.id, section: "goals", blockId: "b1" });
    const r2 = await owner.client.post(`/api/projects/${projectId}/comments`, { content: "Agreed", parentId: reply.id, section: "scope" });
    expect(r2.body.comment).toMatchObject({ parentId: thread.id, section: "scope" });
    const second = await member.client.post(`/api/projects/${projectId}/comments`, { content: "Second thread" });
    const list = await owner.client.get(`/api/projects/${projectId}/comments`);
    expect(list.status).toBe(200);
    expect(list.body.comments.map((c: any) => c.id)).toEqual([thread.id, second.body.comment.id]);
    expect(list.body.comments[0].replies.map((c: any) => c.content)).toEqual(["Yes", "Agreed"]);
    expect(list.body.comments[1].replies).toEqual([]);
  });

  it("refuses a parentId that is not a comment of the same project (400)", async () => {
    const elsewhere = await owner.client.post(`/api/projects/${otherProjectId}/comments`, { content: "Other project" });
    const res = await owner.client.post(`/api/projects/${projectId}/comments`, { content: "x", parentId: elsewhere.body.comment.id });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(res.body.details[0].path).toBe("parentId");
    expectError(await owner.client.post(`/api/projects/${projectId}/comments`, { content: "x", parentId: "nope" }), 400, "VALIDATION_ERROR");
  });

  it("validates content: required, 1..10000 characters", async () => {
    const url = `/api/projects/${projectId}/comments`;
    const missing = await owner.client.post(url, {});
    expectError(missing, 400, "VALIDATION_ERROR");
    expect(missing.body.details[0].path).toBe("content");
    expectError(await owner.client.post(url, { content: "   " }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post(url, { content: "a".repeat(10_001) }), 400, "VALIDATION_ERROR");
    expect((await owner.client.post(url, { content: "a".repeat(10_000) })).status).toBe(201);
  });

  it("resolves @mentions to members of the organization who can read the project; names the others in notNotified", async () => {
    const content = `Hey @${member.email}, @${outsider.email} and @nobody@example.com, see also plain ${admin.email}; cc @${viewer.email.toUpperCase()}.`;
    const res = await owner.client.post(`/api/projects/${projectId}/comments`, { content });
    expect(res.status, res.text).toBe(201);
    const ids = res.body.comment.mentions.map((m: any) => m.id).sort();
    // The viewer does not collaborate on this project: not mentioned, not notified, and the author is told.
    expect(ids).toEqual([member.user.id]);
    expect(res.body.notNotified).toEqual([{ id: viewer.user.id, name: "Vic Viewer" }]);
    expect(res.body.comment.mentions.find((m: any) => m.id === member.user.id).name).toBe("Mia Member");
    const evt = (await events("comment.created")).find((e) => e.data.commentId === res.body.comment.id);
    expect([...evt!.data.mentionedUserIds].sort()).toEqual(ids);
    expect(evt!.data.mentionedUserIds).not.toContain(outsider.user.id);
  });

  it("lets only the author edit (others 403), re-resolving mentions and setting editedAt", async () => {
    const url = `/api/projects/${projectId}/comments/${reply.id}`;
    expectError(await owner.client.patch(url, { content: "hijack" }), 403, "FORBIDDEN");
    expectError(await admin.client.patch(url, { content: "hijack" }), 403, "FORBIDDEN");
    expectError(await member.client.patch(url, { content: "" }), 400, "VALIDATION_ERROR");
    const res = await member.client.patch(url, { content: `Yes, ask @${owner.email}` });
    expect(res.status, res.text).toBe(200);
    expect(res.body.comment).toMatchObject({ content: `Yes, ask @${owner.email}`, mentions: [{ id: owner.user.id, name: "Olivia Owner" }] });
    expect(res.body.comment.editedAt).toEqual(expect.any(String));
    expectError(await member.client.patch(`/api/projects/${projectId}/comments/missing`, { content: "x" }), 404, "NOT_FOUND");
  });

  it("deletes: author or owner/admin only; a comment with replies is blanked, one without is removed", async () => {
    const base = `/api/projects/${projectId}/comments`;
    const top = (await member.client.post(base, { content: "Top" })).body.comment;
    const r = (await owner.client.post(base, { content: "Reply", parentId: top.id })).body.comment;
    const lone = (await member.client.post(base, { content: "Lone" })).body.comment;
    // Another member may not delete someone else's comment.
    const other = await joinOrg(orgA, "member", "Nina Member");
    expectError(await other.client.delete(`${base}/${top.id}`), 403, "FORBIDDEN");
    expectError(await commenter.client.delete(`${base}/${lone.id}`), 403, "FORBIDDEN");
    // The author deletes a comment with replies: blanked, thread kept.
    const del = await member.client.delete(`${base}/${top.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    let list = (await owner.client.get(base)).body.comments;
    const kept = list.find((c: any) => c.id === top.id);
    expect(kept).toMatchObject({ deleted: true, content: "", user: null, mentions: [] });
    expect(kept.replies.map((c: any) => c.id)).toEqual([r.id]);
    expectError(await member.client.patch(`${base}/${top.id}`, { content: "back" }), 404, "NOT_FOUND");
    expectError(await member.client.delete(`${base}/${top.id}`), 404, "NOT_FOUND");
    // An admin deletes the lone comment of someone else: removed.
    expect((await admin.client.delete(`${base}/${lone.id}`)).status).toBe(200);
    list = (await owner.client.get(base)).body.comments;
    expect(list.some((c: any) => c.id === lone.id)).toBe(false);
    // Removing the last reply of a blanked thread removes the thread too.
    expect((await owner.client.delete(`${base}/${r.id}`)).status).toBe(200);
    list = (await owner.client.get(base)).body.comments;
    expect(list.some((c: any) => c.id === top.id)).toBe(false);
    const act = (await owner.client.get(`/api/projects/${projectId}/activity?limit=200`)).body.activities;
    expect(act.filter((a: any) => a.action === "comment.deleted").length).toBeGreaterThanOrEqual(3);
  });
});

describe("sharing", () => {
  const readable = (p: string) => [`/api/projects/${p}`, `/api/projects/${p}/prd`, `/api/projects/${p}/status-history`, `/api/projects/${p}/activity`];
  let sharedId: string;
  let token: string;

  async function readAll(headers: Record<string, string>) {
    const anon = anonymous();
    return Promise.all(readable(sharedId).map((path) => anon.get(path, { headers })));
  }

  it("starts disabled, then enables with a token and URL (201), share.enabled event", async () => {
    sharedId = await newProject(owner.client, "Shared spec");
    expect((await owner.client.post(`/api/projects/${sharedId}/prd`, { content: "# Spec" })).status).toBe(201);
    const before = await owner.client.get(`/api/projects/${sharedId}/share`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ enabled: false, shareToken: null, shareUrl: null, hasPassword: false, expiresAt: null });
    const res = await owner.client.post(`/api/projects/${sharedId}/share`, {});
    expect(res.status, res.text).toBe(201);
    token = res.body.shareToken;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(res.body).toEqual({
      enabled: true,
      shareToken: token,
      shareUrl: `http://localhost:3000/share/${token}`,
      hasPassword: false,
      expiresAt: null,
    });
    expect((await owner.client.get(`/api/projects/${sharedId}/share`)).body).toEqual(res.body);
    const row = await db.selectFrom("projectShares").selectAll().where("projectId", "=", sharedId).executeTakeFirstOrThrow();
    expect(row.tokenHash).not.toContain(token);
    expect(row.tokenEncrypted).not.toContain(token);
    expect((await events("share.enabled")).some((e) => e.data.projectId === sharedId)).toBe(true);
  });

  it("reads detail, PRD, status history and activity with x-share-token, and nothing else", async () => {
    for (const res of await readAll({ "x-share-token": token })) expect(res.status, res.text).toBe(200);
    const anon = anonymous();
    const headers = { "x-share-token": token };
    expectError(await anon.patch(`/api/projects/${sharedId}`, { name: "x" }, { headers }), 401, "UNAUTHORIZED");
    expectError(await anon.get(`/api/projects/${sharedId}/comments`, { headers }), 401, "UNAUTHORIZED");
    expectError(await anon.get(`/api/projects/${sharedId}/prd/versions`, { headers }), 401, "UNAUTHORIZED");
    expectError(await anon.post(`/api/projects/${sharedId}/comments`, { content: "x" }, { headers }), 401, "UNAUTHORIZED");
    for (const path of readable(projectId)) expectError(await anon.get(path, { headers }), 404, "NOT_FOUND");
    expectError(await anon.get(`/api/projects/${sharedId}`, { headers: { "x-share-token": "nope" } }), 401, "INVALID_TOKEN");
  });

  it("updates password and expiry keeping the token (200); password protects all four endpoints", async () => {
    const res = await owner.client.post(`/api/projects/${sharedId}/share`, { password: "open sesame" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ shareToken: token, hasPassword: true, enabled: true });
    const row = await db.selectFrom("projectShares").select("passwordHash").where("projectId", "=", sharedId).executeTakeFirstOrThrow();
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    for (const r of await readAll({ "x-share-token": token })) expectError(r, 401, "SHARE_PASSWORD_REQUIRED");
    for (const r of await readAll({ "x-share-token": token, "x-share-password": "wrong!" })) {
      expectError(r, 401, "SHARE_PASSWORD_REQUIRED");
    }
    for (const r of await readAll({ "x-share-token": token, "x-share-password": "open sesame" })) expect(r.status).toBe(200);
    // Omitting password keeps it; setting expiry only.
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const exp = await owner.client.post(`/api/projects/${sharedId}/share`, { expiresAt: future });
    expect(exp.status).toBe(200);
    expect(exp.body).toMatchObject({ shareToken: token, hasPassword: true, expiresAt: future });
    // null removes the password.
    const cleared = await owner.client.post(`/api/projects/${sharedId}/share`, { password: null });
    expect(cleared.body).toMatchObject({ shareToken: token, hasPassword: false, expiresAt: future });
    expect((await anonymous().get(`/api/projects/${sharedId}`, { headers: { "x-share-token": token } })).status).toBe(200);
  });

  it("validates expiresAt (ISO date-time in the future) and password", async () => {
    const url = `/api/projects/${sharedId}/share`;
    const past = await owner.client.post(url, { expiresAt: "2001-01-01T00:00:00Z" });
    expectError(past, 400, "VALIDATION_ERROR");
    expect(past.body.details[0].path).toBe("expiresAt");
    expectError(await owner.client.post(url, { expiresAt: "tomorrow" }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post(url, { password: "" }), 400, "VALIDATION_ERROR");
  });

  it("answers 410 SHARE_EXPIRED once the link has expired", async () => {
    await db
      .updateTable("projectShares")
      .set({ expiresAt: nowIso(new Date(Date.now() - 60_000)) })
      .where("projectId", "=", sharedId)
      .execute();
    for (const r of await readAll({ "x-share-token": token })) expectError(r, 410, "SHARE_EXPIRED");
  });

  it("revokes: the old token gets 401 INVALID_TOKEN; share.revoked event; re-enabling makes a new token", async () => {
    const del = await owner.client.delete(`/api/projects/${sharedId}/share`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    for (const r of await readAll({ "x-share-token": token })) expectError(r, 401, "INVALID_TOKEN");
    expect((await owner.client.get(`/api/projects/${sharedId}/share`)).body.enabled).toBe(false);
    expectError(await owner.client.delete(`/api/projects/${sharedId}/share`), 404, "NOT_FOUND");
    expect((await events("share.revoked")).some((e) => e.data.projectId === sharedId)).toBe(true);
    const again = await owner.client.post(`/api/projects/${sharedId}/share`, {});
    expect(again.status).toBe(201);
    expect(again.body.shareToken).not.toBe(token);
  });
});

describe("collaborators", () => {
  let p: string;
  it("adds an organization member by e-mail (201 {collaborator}) and lists them", async () => {
    p = await newProject(owner.client, "People");
    const res = await owner.client.post(`/api/projects/${p}/collaborators`, { email: viewer.email.toUpperCase(), role: "editor" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.collaborator).toMatchObject({
      role: "editor",
      user: { id: viewer.user.id, name: "Vic Viewer", email: viewer.email },
      addedBy: { id: owner.user.id, name: "Olivia Owner" },
    });
    const list = await member.client.get(`/api/projects/${p}/collaborators`);
    expect(list.status).toBe(200);
    expect(list.body.collaborators).toHaveLength(1);
    expect(list.body.collaborators[0].id).toBe(res.body.collaborator.id);
    // The viewer now edits the project.
    expect((await viewer.client.patch(`/api/projects/${p}`, { description: "edited" })).status).toBe(200);
  });

  it("refuses unknown e-mails and non-members (400, path email), duplicates (409), bad roles (400)", async () => {
    const url = `/api/projects/${p}/collaborators`;
    const unknown = await owner.client.post(url, { email: "ghost@example.com", role: "viewer" });
    expectError(unknown, 400, "VALIDATION_ERROR");
    expect(unknown.body.details).toEqual([{ path: "email", message: expect.any(String) }]);
    const foreign = await owner.client.post(url, { email: outsider.email, role: "viewer" });
    expectError(foreign, 400, "VALIDATION_ERROR");
    expect(foreign.body.details[0].path).toBe("email");
    expectError(await owner.client.post(url, { email: viewer.email, role: "commenter" }), 409, "CONFLICT");
    expectError(await owner.client.post(url, { email: member.email, role: "owner" }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post(url, { email: "not-an-email", role: "viewer" }), 400, "VALIDATION_ERROR");
  });

  it("removes by collaborator id; unknown id 404; a collaborator may leave; others 403", async () => {
    const url = `/api/projects/${p}/collaborators`;
    const added = await owner.client.post(url, { email: commenter.email, role: "commenter" });
    expectError(await commenter.client.delete(`${url}/${(await owner.client.get(url)).body.collaborators[0].id}`), 403, "FORBIDDEN");
    expect((await commenter.client.delete(`${url}/${added.body.collaborator.id}`)).body).toEqual({ success: true });
    const list = (await owner.client.get(url)).body.collaborators;
    expect(list).toHaveLength(1);
    const del = await owner.client.delete(`${url}/${list[0].id}`);
    expect(del.body).toEqual({ success: true });
    expectError(await owner.client.delete(`${url}/${list[0].id}`), 404, "NOT_FOUND");
    // Without the collaboration the viewer no longer sees the project.
    expectError(await viewer.client.get(`/api/projects/${p}`), 404, "NOT_FOUND");
    const act = (await owner.client.get(`/api/projects/${p}/activity`)).body.activities.map((a: any) => a.action);
    expect(act.filter((a: string) => a === "collaborator.added")).toHaveLength(2);
    expect(act.filter((a: string) => a === "collaborator.removed")).toHaveLength(2);
  });
});

describe("stakeholder views", () => {
  it("creates review requests (pending) and plain views, lists and deletes them", async () => {
    const url = `/api/projects/${projectId}/stakeholder-views`;
    const review = await owner.client.post(url, {
      name: "Finance sign-off",
      stakeholderName: "Fay CFO",
      stakeholderEmail: "Fay@Example.com",
      audience: "finance",
      sections: ["goals", "metrics"],
      notes: "Focus on cost",
    });
    expect(review.status, review.text).toBe(201);
    expect(review.body.view).toMatchObject({
      name: "Finance sign-off",
      stakeholderName: "Fay CFO",
      stakeholderEmail: "fay@example.com",
      audience: "finance",
      sections: ["goals", "metrics"],
      notes: "Focus on cost",
      kind: "review",
      reviewStatus: "pending",
      feedback: null,
      resolvedAt: null,
      resolvedByName: null,
    });
    const plain = await owner.client.post(url, { name: "Engineering", requestReview: false });
    expect(plain.body.view).toMatchObject({ kind: "view", reviewStatus: null, sections: [], stakeholderName: null });
    expectError(await owner.client.post(url, {}), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post(url, { name: "x", stakeholderEmail: "nope" }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post(url, { name: "x", sections: "goals" }), 400, "VALIDATION_ERROR");
    const list = await commenter.client.get(url);
    expect(list.status).toBe(200);
    expect(list.body.views.map((v: any) => v.id)).toEqual([review.body.view.id, plain.body.view.id]);
    expectError(await member.client.delete(`${url}/${plain.body.view.id}`), 403, "FORBIDDEN");
    expect((await owner.client.delete(`${url}/${plain.body.view.id}`)).body).toEqual({ success: true });
    expectError(await owner.client.delete(`${url}/${plain.body.view.id}`), 404, "NOT_FOUND");
    expect((await owner.client.get(url)).body.views).toHaveLength(1);
  });
});

describe("links", () => {
  it("links web addresses and projects with defaults, lists with target", async () => {
    const url = `/api/projects/${projectId}/links`;
    const web = await owner.client.post(url, { url: "https://figma.com/file/abc" });
    expect(web.status, web.text).toBe(201);
    expect(web.body.link).toMatchObject({
      title: "https://figma.com/file/abc",
      url: "https://figma.com/file/abc",
      targetProjectId: null,
      linkType: "reference",
      target: null,
      createdBy: { id: owner.user.id, name: "Olivia Owner" },
    });
    const proj = await owner.client.post(url, { targetProjectId: otherProjectId });
    expect(proj.body.link).toMatchObject({
      title: "Payments API",
      linkType: "relates_to",
      target: { id: otherProjectId, name: "Payments API", status: "DRAFT" },
    });
    const typed = await owner.client.post(url, { title: "Blocked by", targetProjectId: otherProjectId, linkType: "depends_on" });
    expect(typed.body.link).toMatchObject({ title: "Blocked by", linkType: "depends_on" });
    const list = await member.client.get(url);
    expect(list.body.links.map((l: any) => l.id)).toEqual([web.body.link.id, proj.body.link.id, typed.body.link.id]);
    expect(list.body.links[1].target).toEqual({ id: otherProjectId, name: "Payments API", status: "DRAFT" });
    // A viewer collaborator cannot see a linked project that is not shared with them.
    const seen = await commenter.client.get(url);
    expect(seen.body.links[1]).toMatchObject({ targetProjectId: otherProjectId, target: null });
    expect((await owner.client.delete(`${url}/${typed.body.link.id}`)).body).toEqual({ success: true });
    expectError(await owner.client.delete(`${url}/${typed.body.link.id}`), 404, "NOT_FOUND");
  });

  it("validates: exactly one of url/targetProjectId, http(s) only, same organization, known linkType", async () => {
    const url = `/api/projects/${projectId}/links`;
    const c = owner.client;
    expectError(await c.post(url, {}), 400, "VALIDATION_ERROR");
    expectError(await c.post(url, { url: "https://a.com", targetProjectId: otherProjectId }), 400, "VALIDATION_ERROR");
    expectError(await c.post(url, { url: "ftp://a.com/x" }), 400, "VALIDATION_ERROR");
    expectError(await c.post(url, { url: "javascript:alert(1)" }), 400, "VALIDATION_ERROR");
    const foreign = await c.post(url, { targetProjectId: outsiderProjectId });
    expectError(foreign, 400, "VALIDATION_ERROR");
    expect(foreign.body.details[0].path).toBe("targetProjectId");
    expectError(await c.post(url, { targetProjectId: projectId }), 400, "VALIDATION_ERROR");
    expectError(await c.post(url, { url: "https://a.com", linkType: "friend" }), 400, "VALIDATION_ERROR");
  });
});

describe("public stakeholder review", () => {
  let p: string;
  let token: string;
  let reviewId: string;
  let plainId: string;

  beforeAll(async () => {
    p = await newProject(owner.client, "Review me");
    token = (await owner.client.post(`/api/projects/${p}/share`, {})).body.shareToken;
    reviewId = (await owner.client.post(`/api/projects/${p}/stakeholder-views`, { name: "Legal", stakeholderName: "Lee" })).body.view.id;
    plainId = (await owner.client.post(`/api/projects/${p}/stakeholder-views`, { name: "FYI", requestReview: false })).body.view.id;
  });

  it("lists the review requests of the shared project without a session", async () => {
    const res = await anonymous().get(`/api/stakeholder-review/by-token?token=${token}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.project).toEqual({ id: p, name: "Review me", status: "DRAFT" });
    expect(res.body.reviews.map((r: any) => r.id)).toEqual([reviewId]);
    expect(res.body.reviews[0]).toMatchObject({ name: "Legal", reviewStatus: "pending" });
    expectError(await anonymous().get(`/api/stakeholder-review/by-token`), 400, "VALIDATION_ERROR");
    expectError(await anonymous().get(`/api/stakeholder-review/by-token?token=wrong`), 401, "INVALID_TOKEN");
  });

  it("resolves a review: updates it, records activity and a review.resolved event; latest decision wins", async () => {
    const anon = anonymous();
    const res = await anon.post("/api/stakeholder-review/resolve", {
      token,
      reviewId,
      status: "approved",
      feedback: "Looks good",
      reviewerName: "Lee Legal",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.review).toMatchObject({ id: reviewId, reviewStatus: "approved", feedback: "Looks good", resolvedByName: "Lee Legal" });
    expect(res.body.review.resolvedAt).toEqual(expect.any(String));
    const activity = await db.selectFrom("projectActivity").selectAll().where("projectId", "=", p).where("action", "=", "review.resolved").execute();
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({ actorId: null, actorName: "Lee Legal" });
    const evt = (await events("review.resolved")).filter((e) => e.data.projectId === p);
    expect(evt).toHaveLength(1);
    expect(evt[0]!.data).toEqual({ projectId: p, reviewId, status: "approved" });
    expect(evt[0]!.orgId).toBe(orgA);

    const again = await anon.post("/api/stakeholder-review/resolve", { token, reviewId, status: "rejected" });
    expect(again.body.review).toMatchObject({ reviewStatus: "rejected", feedback: null, resolvedByName: null });
    const anonymousActivity = await db
      .selectFrom("projectActivity")
      .select("actorName")
      .where("projectId", "=", p)
      .where("action", "=", "review.resolved")
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    expect(anonymousActivity.actorName).toBe("A stakeholder");
    const views = (await owner.client.get(`/api/projects/${p}/stakeholder-views`)).body.views;
    expect(views.find((v: any) => v.id === reviewId)).toMatchObject({ reviewStatus: "rejected" });
  });

  it("refuses reviews of other projects and plain views (404), bad status (400), bad tokens (401)", async () => {
    const anon = anonymous();
    const url = "/api/stakeholder-review/resolve";
    const foreign = (await owner.client.get(`/api/projects/${projectId}/stakeholder-views`)).body.views[0].id;
    expectError(await anon.post(url, { token, reviewId: foreign, status: "approved" }), 404, "NOT_FOUND");
    expectError(await anon.post(url, { token, reviewId: plainId, status: "approved" }), 404, "NOT_FOUND");
    expectError(await anon.post(url, { token, reviewId, status: "maybe" }), 400, "VALIDATION_ERROR");
    expectError(await anon.post(url, { reviewId, status: "approved" }), 400, "VALIDATION_ERROR");
    expectError(await anon.post(url, { token: "wrong", reviewId, status: "approved" }), 401, "INVALID_TOKEN");
  });

  it("needs the share password when the link has one, and stops at expiry and revocation", async () => {
    await owner.client.post(`/api/projects/${p}/share`, { password: "letmein" });
    const anon = anonymous();
    const list = `/api/stakeholder-review/by-token?token=${token}`;
    expectError(await anon.get(list), 401, "SHARE_PASSWORD_REQUIRED");
    expect((await anon.get(list, { headers: { "x-share-password": "letmein" } })).status).toBe(200);
    const body = { token, reviewId, status: "approved" };
    expectError(await anon.post("/api/stakeholder-review/resolve", body), 401, "SHARE_PASSWORD_REQUIRED");
    const ok = await anon.post("/api/stakeholder-review/resolve", body, { headers: { "x-share-password": "letmein" } });
    expect(ok.status, ok.text).toBe(200);
    await db.updateTable("projectShares").set({ expiresAt: "2001-01-01T00:00:00.000Z" }).where("projectId", "=", p).execute();
    expectError(await anon.get(list, { headers: { "x-share-password": "letmein" } }), 410, "SHARE_EXPIRED");
    await owner.client.delete(`/api/projects/${p}/share`);
    expectError(await anon.get(list), 401, "INVALID_TOKEN");
    expectError(await anon.post("/api/stakeholder-review/resolve", body), 401, "INVALID_TOKEN");
  });
});

describe("contract", () => {
  it("documents every collaboration endpoint in /api/openapi.json", async () => {
    const res = await owner.client.get("/api/openapi.json");
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    const expected: Array<[string, string[]]> = [
      ["/api/projects/{projectId}/comments", ["get", "post"]],
      ["/api/projects/{projectId}/comments/{commentId}", ["patch", "delete"]],
      ["/api/projects/{projectId}/share", ["get", "post", "delete"]],
      ["/api/projects/{projectId}/collaborators", ["get", "post"]],
      ["/api/projects/{projectId}/collaborators/{collaboratorId}", ["delete"]],
      ["/api/projects/{projectId}/stakeholder-views", ["get", "post"]],
      ["/api/projects/{projectId}/stakeholder-views/{viewId}", ["delete"]],
      ["/api/projects/{projectId}/links", ["get", "post"]],
      ["/api/projects/{projectId}/links/{linkId}", ["delete"]],
      ["/api/stakeholder-review/by-token", ["get"]],
      ["/api/stakeholder-review/resolve", ["post"]],
    ];
    for (const [path, methods] of expected) {
      expect(Object.keys(paths[path] ?? {}).sort(), path).toEqual(expect.arrayContaining(methods));
    }
  });

  it("answers 405 for methods a route does not have", async () => {
    const res = await owner.client.call("PUT", `/api/projects/${projectId}/comments`, { json: {} });
    expectError(res, 405, "METHOD_NOT_ALLOWED");
  });
});
