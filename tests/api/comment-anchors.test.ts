import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { readableProjects } from "~/domain/projects/access.server";
import type { Account } from "../support/org";
import { expectError, joinOrg, setPlan } from "../support/org";
import { signedUpClient, type TestClient } from "../support/client";
import { pageText } from "../support/page";

/**
 * Comments on a passage of the PRD (anchors and their status as the PRD
 * changes), resolving threads, and who may be @mentioned
 * (docs/collaboration.md, "Comments").
 */

const PRD = `# Checkout revamp

## Problem
Checkout takes nine steps. Customers abandon the cart at the **payment page**.

## Goals
- Cut checkout to three steps.
- Support Apple Pay at launch.

## Risks
Support Apple Pay may slip to the next release.
`;

let owner: Account; // owner of org A, creates the projects
let member: Account; // member of org A, did not create them
let commenter: Account; // viewer of org A, commenter collaborator on the projects
let reader: Account; // viewer of org A, viewer collaborator (reads, may not comment)
let viewer: Account; // viewer of org A without collaboration: cannot read the projects
let outsider: Account; // owner of org B

async function projectWithPrd(content = PRD) {
  const created = await owner.client.post("/api/projects", { name: "Checkout revamp" });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  expect((await owner.client.post(`/api/projects/${id}/prd`, { content })).status).toBe(201);
  for (const [who, role] of [
    [commenter, "commenter"],
    [reader, "viewer"],
  ] as const) {
    const added = await owner.client.post(`/api/projects/${id}/collaborators`, { email: who.email, role });
    expect(added.status, added.text).toBe(201);
  }
  return id;
}

/** Replaces the PRD (POST …/prd on an existing PRD: "create or replace", 200). */
const putPrd = async (projectId: string, content: string) => {
  const res = await owner.client.post(`/api/projects/${projectId}/prd`, { content });
  expect(res.status, res.text).toBe(200);
};

const threads = async (client: TestClient, projectId: string) => {
  const res = await client.get(`/api/projects/${projectId}/comments`);
  expect(res.status, res.text).toBe(200);
  return res.body.comments as any[];
};

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olivia Owner" });
  await setPlan(owner.organization.id, "pro");
  member = await joinOrg(owner.organization.id, "member", "Mia Member");
  commenter = await joinOrg(owner.organization.id, "viewer", "Cora Commenter");
  reader = await joinOrg(owner.organization.id, "viewer", "Rita Reader");
  viewer = await joinOrg(owner.organization.id, "viewer", "Vic Viewer");
  outsider = await signedUpClient({ name: "Otto Outsider" });
  await setPlan(outsider.organization.id, "pro");
});

describe("comment anchors", () => {
  it("anchors a thread on a passage as the reader sees it, in the section that contains it", async () => {
    const projectId = await projectWithPrd();
    // The reader sees "payment page", not "**payment page**".
    const anchor = { quote: "abandon the cart at the payment page", prefix: "Customers ", suffix: "." };
    const res = await member.client.post(`/api/projects/${projectId}/comments`, { content: "Which step loses most?", anchor });
    expect(res.status, res.text).toBe(201);
    expect(res.body.comment).toMatchObject({
      section: "problem",
      anchor: { ...anchor, status: "anchored" },
      resolved: false,
      resolvedAt: null,
      resolvedBy: null,
    });
    // The same words twice: the context decides the section; an explicit section is kept.
    const base = `/api/projects/${projectId}/comments`;
    const risk = await member.client.post(base, { content: "How likely?", anchor: { quote: "Support Apple Pay", suffix: " may slip" } });
    expect(risk.body.comment.section).toBe("risks");
    const goal = await member.client.post(base, { content: "At launch?", anchor: { quote: "support apple pay", prefix: "three steps. " } });
    expect(goal.body.comment.section).toBe("goals");
    const explicit = await member.client.post(base, { content: "Noted", section: "goals", anchor: { quote: "nine steps" } });
    expect(explicit.body.comment).toMatchObject({ section: "goals", anchor: { quote: "nine steps", prefix: null, suffix: null, status: "anchored" } });
    // A quote the PRD does not have: kept, no section, lost.
    const nowhere = await member.client.post(base, { content: "?", anchor: { quote: "text from an unsaved draft" } });
    expect(nowhere.body.comment).toMatchObject({ section: null, anchor: { status: "lost" } });
    // Comments without an anchor have none.
    const plain = await member.client.post(base, { content: "General remark" });
    expect(plain.body.comment.anchor).toBeNull();

    const list = await threads(owner.client, projectId);
    expect(list.map((c) => c.anchor?.status ?? null)).toEqual(["anchored", "anchored", "anchored", "anchored", "lost", null]);
  });

  it("follows the passage through edits of the PRD: anchored while it is there, 'section' when it goes, 'lost' with its section", async () => {
    const projectId = await projectWithPrd();
    const anchor = { quote: "Customers abandon the cart at the payment page", prefix: "nine steps. ", suffix: "." };
    const thread = (await member.client.post(`/api/projects/${projectId}/comments`, { content: "Data?", anchor })).body.comment;
    expect(thread).toMatchObject({ section: "problem", anchor: { status: "anchored" } });
    const status = async () => (await threads(member.client, projectId)).find((c) => c.id === thread.id).anchor.status;

    // Moved down, text added around it, reflowed: still anchored.
    await putPrd(projectId, PRD.replace("## Problem\n", "## Problem\nA new first paragraph.\n\nOur research shows:\n").replace("the cart at", "the cart\nat"));
    expect(await status()).toBe("anchored");
    // A small edit inside the passage: still anchored.
    await putPrd(projectId, PRD.replace("abandon the cart at", "abandon their cart on"));
    expect(await status()).toBe("anchored");
    // The passage removed, its section kept.
    await putPrd(projectId, PRD.replace("Customers abandon the cart at the **payment page**.", "Most never finish."));
    expect(await status()).toBe("section");
    // The section removed too.
    await putPrd(projectId, "# Checkout revamp\n\n## Goals\n- Cut checkout to three steps.\n");
    expect(await status()).toBe("lost");
    // Back again (e.g. a version restored): anchored.
    await putPrd(projectId, PRD);
    expect(await status()).toBe("anchored");
  });

  it("gives replies the thread's anchor, and refuses an anchor of their own (400, path anchor)", async () => {
    const projectId = await projectWithPrd();
    const base = `/api/projects/${projectId}/comments`;
    const anchor = { quote: "Cut checkout to three steps.", prefix: "", suffix: "Support" };
    const thread = (await owner.client.post(base, { content: "Three?", anchor })).body.comment;
    const reply = await member.client.post(base, { content: "Yes, three.", parentId: thread.id });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.comment).toMatchObject({ parentId: thread.id, section: "goals", anchor: { ...anchor, status: "anchored" } });
    const nested = await commenter.client.post(base, { content: "Agreed", parentId: reply.body.comment.id });
    expect(nested.body.comment).toMatchObject({ parentId: thread.id, anchor: thread.anchor });

    const own = await member.client.post(base, { content: "Elsewhere", parentId: thread.id, anchor: { quote: "nine steps" } });
    expectError(own, 400, "VALIDATION_ERROR");
    expect(own.body.details[0].path).toBe("anchor");
    const list = await threads(owner.client, projectId);
    expect(list[0].replies.map((r: any) => r.anchor.quote)).toEqual([anchor.quote, anchor.quote]);
  });

  it("validates the anchor: a quote of 1..500 characters after trimming, prefix and suffix up to 100", async () => {
    const projectId = await projectWithPrd();
    const url = `/api/projects/${projectId}/comments`;
    for (const [anchor, path] of [
      [{ quote: "   " }, "anchor.quote"],
      [{}, "anchor.quote"],
      [{ quote: "x".repeat(501) }, "anchor.quote"],
      [{ quote: "nine steps", prefix: "p".repeat(101) }, "anchor.prefix"],
      [{ quote: "nine steps", suffix: "s".repeat(101) }, "anchor.suffix"],
    ] as const) {
      const res = await owner.client.post(url, { content: "x", anchor });
      expectError(res, 400, "VALIDATION_ERROR");
      expect(res.body.details[0].path).toBe(path);
    }
    const trimmed = await owner.client.post(url, { content: "x", anchor: { quote: "  nine steps  ", prefix: "p".repeat(100) } });
    expect(trimmed.status, trimmed.text).toBe(201);
    expect(trimmed.body.comment.anchor.quote).toBe("nine steps");
  });
});

describe("resolving threads", () => {
  let projectId: string;
  let thread: any;
  let reply: any;

  beforeAll(async () => {
    projectId = await projectWithPrd();
    const base = `/api/projects/${projectId}/comments`;
    thread = (await owner.client.post(base, { content: "Is nine right?", anchor: { quote: "nine steps" } })).body.comment;
    reply = (await member.client.post(base, { content: "Counted twice", parentId: thread.id })).body.comment;
  });

  const url = () => `/api/projects/${projectId}/comments/${thread.id}`;
  const eventCount = async () =>
    Number(
      (
        await db
          .selectFrom("events")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("data", "like", `%${projectId}%`)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const activity = async () =>
    ((await owner.client.get(`/api/projects/${projectId}/activity?limit=200`)).body.activities as any[]).filter((a) => a.data.commentId === thread.id);

  it("lets anyone who may comment resolve and reopen a thread, recorded in the activity feed without an event", async () => {
    const events = await eventCount();
    const resolved = await member.client.patch(url(), { resolved: true });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.comment).toMatchObject({
      id: thread.id,
      content: "Is nine right?",
      resolved: true,
      resolvedAt: expect.any(String),
      resolvedBy: { id: member.user.id, name: "Mia Member" },
      editedAt: null,
    });
    expect(resolved.body.notNotified).toEqual([]);
    let list = await threads(owner.client, projectId);
    expect(list[0]).toMatchObject({ resolved: true, resolvedBy: { id: member.user.id } });
    // Replies show their thread's state.
    expect(list[0].replies[0]).toMatchObject({ id: reply.id, resolved: true, resolvedBy: { id: member.user.id } });
    // Resolving again changes nothing.
    expect((await owner.client.patch(url(), { resolved: true })).body.comment.resolvedBy.id).toBe(member.user.id);

    // A commenter collaborator (a viewer) reopens it.
    const reopened = await commenter.client.patch(url(), { resolved: false });
    expect(reopened.status, reopened.text).toBe(200);
    expect(reopened.body.comment).toMatchObject({ resolved: false, resolvedAt: null, resolvedBy: null });
    list = await threads(owner.client, projectId);
    expect(list[0].replies[0].resolved).toBe(false);

    expect((await activity()).map((a) => a.action).sort()).toEqual(["comment.created", "comment.reopened", "comment.resolved"]);
    expect(await eventCount()).toBe(events);
  });

  it("refuses to resolve a reply (400, path resolved) and a PATCH with neither content nor resolved (400)", async () => {
    const res = await owner.client.patch(`/api/projects/${projectId}/comments/${reply.id}`, { resolved: true });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(res.body.details[0].path).toBe("resolved");
    expectError(await owner.client.patch(url(), {}), 400, "VALIDATION_ERROR");
    expectError(await owner.client.patch(url(), { resolved: "yes" }), 400, "VALIDATION_ERROR");
  });

  it("keeps editing to the author: content with resolved from someone else is 403 and changes nothing", async () => {
    expectError(await member.client.patch(url(), { content: "hijack", resolved: true }), 403, "FORBIDDEN");
    const both = await owner.client.patch(url(), { content: "Is nine right? (recounted)", resolved: true });
    expect(both.status, both.text).toBe(200);
    expect(both.body.comment).toMatchObject({ content: "Is nine right? (recounted)", resolved: true, editedAt: expect.any(String) });
    expect((await owner.client.patch(url(), { resolved: false })).body.comment.resolved).toBe(false);
  });

  it("refuses readers who may not comment (403) and hides the thread from those who cannot read the project (404)", async () => {
    expectError(await reader.client.patch(url(), { resolved: true }), 403, "FORBIDDEN");
    expectError(await viewer.client.patch(url(), { resolved: true }), 404, "NOT_FOUND");
    expectError(await outsider.client.patch(url(), { resolved: true }), 404, "NOT_FOUND");
    expectError(await outsider.client.patch(url(), { resolved: false }), 404, "NOT_FOUND");
    const after = (await threads(owner.client, projectId))[0];
    expect(after).toMatchObject({ resolved: false, resolvedBy: null });
  });

  it("resolves a thread whose first comment was deleted but kept for its replies", async () => {
    const base = `/api/projects/${projectId}/comments`;
    const top = (await member.client.post(base, { content: "Top" })).body.comment;
    await owner.client.post(base, { content: "Reply", parentId: top.id });
    expect((await member.client.delete(`${base}/${top.id}`)).status).toBe(200);
    const res = await owner.client.patch(`${base}/${top.id}`, { resolved: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.comment).toMatchObject({ deleted: true, resolved: true });
    expectError(await member.client.patch(`${base}/${top.id}`, { content: "back" }), 404, "NOT_FOUND");
  });
});

describe("GET /api/projects/{projectId}/comments/mentionable", () => {
  it("lists the organization's members who can read the project, by name, to any reader; 404 to others", async () => {
    const projectId = await projectWithPrd();
    const res = await reader.client.get(`/api/projects/${projectId}/comments/mentionable`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.users).toEqual([
      { id: commenter.user.id, name: "Cora Commenter", email: commenter.email },
      { id: member.user.id, name: "Mia Member", email: member.email },
      { id: owner.user.id, name: "Olivia Owner", email: owner.email },
      { id: reader.user.id, name: "Rita Reader", email: reader.email },
    ]);
    // Vic Viewer cannot read the project: not offered, and the list is not theirs to see.
    expect(JSON.stringify(res.body)).not.toContain(viewer.email);
    expectError(await viewer.client.get(`/api/projects/${projectId}/comments/mentionable`), 404, "NOT_FOUND");
    expectError(await outsider.client.get(`/api/projects/${projectId}/comments/mentionable`), 404, "NOT_FOUND");

    // The same rule as readableProjects, member by member.
    const members = await db.selectFrom("memberships").select(["userId", "role"]).where("orgId", "=", owner.organization.id).execute();
    for (const m of members) {
      const reads = await db
        .selectFrom("projects as p")
        .select("p.id")
        .where("p.id", "=", projectId)
        .where(readableProjects({ user: { id: m.userId }, org: { id: owner.organization.id }, role: m.role }))
        .executeTakeFirst();
      expect(
        res.body.users.some((u: any) => u.id === m.userId),
        m.userId,
      ).toBe(Boolean(reads));
    }

    // Shared with Vic, Vic is offered.
    await owner.client.post(`/api/projects/${projectId}/collaborators`, { email: viewer.email, role: "viewer" });
    const after = await member.client.get(`/api/projects/${projectId}/comments/mentionable`);
    expect(after.body.users.map((u: any) => u.name)).toContain("Vic Viewer");
  });
});

describe("the comments panel (the project page, JavaScript off)", () => {
  const post = (client: TestClient, projectId: string, fields: Record<string, string>) =>
    client.call("POST", `/projects/${projectId}?index`, {
      body: new URLSearchParams(fields),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });

  it("shows each thread's passage, resolves and reopens through the page's forms, and folds resolved threads", async () => {
    const projectId = await projectWithPrd();
    const base = `/api/projects/${projectId}/comments`;
    const kept = (await owner.client.post(base, { content: "Why nine?", anchor: { quote: "Checkout takes nine steps." } })).body.comment;
    const gone = (await owner.client.post(base, { content: "About the slip", anchor: { quote: "may slip to the next release" } })).body.comment;
    await putPrd(projectId, PRD.replace("## Risks\nSupport Apple Pay may slip to the next release.\n", ""));

    let page = await member.client.get(`/projects/${projectId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`id="comment-${kept.id}"`);
    expect(page.text).toContain(`data-comment-id="${kept.id}"`);
    expect(page.text).toMatch(/<blockquote class="comment-quote">Checkout takes nine steps\.<\/blockquote>/);
    expect(pageText(page)).toContain("The passage this comment was on was removed.");
    expect(page.text).toContain("Type @ to mention a teammate");
    expect(page.text).not.toContain("Resolved (");

    const resolved = await post(commenter.client, projectId, { intent: "comment-resolve", commentId: kept.id });
    expect(resolved.status).toBe(200);
    expect(pageText(resolved)).toContain("Thread resolved.");
    page = await member.client.get(`/projects/${projectId}`);
    expect(pageText(page)).toContain("Resolved (1)");
    expect(pageText(page)).toContain("Resolved by Cora Commenter");
    expect((await threads(owner.client, projectId)).find((c) => c.id === kept.id).resolvedBy.id).toBe(commenter.user.id);

    // A reader who may not comment: refused beside the form; someone else's reply: refused with the field named.
    const refused = await post(reader.client, projectId, { intent: "comment-resolve", commentId: gone.id });
    expect(refused.status).toBe(403);
    const reply = (await owner.client.post(base, { content: "r", parentId: gone.id })).body.comment;
    const notReply = await post(member.client, projectId, { intent: "comment-resolve", commentId: reply.id });
    expect(notReply.status).toBe(400);

    const reopened = await post(member.client, projectId, { intent: "comment-reopen", commentId: kept.id });
    expect(pageText(reopened)).toContain("Thread reopened.");
    expect((await threads(owner.client, projectId)).every((c) => !c.resolved)).toBe(true);
  });
});
