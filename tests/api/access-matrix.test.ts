import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "#db/schema";
import { db } from "~/db.server";
import { addMembership } from "~/domain/orgs/orgs.server";
import { newId, nowIso } from "~/utils/ids.server";
import { TestClient, signedUpClient } from "../support/client";

/**
 * Who may do what with a project: every organization role, every
 * collaborator role, a share token and another organization, against reads
 * and writes of the same project (docs/projects.md, "Who may do what").
 */

type Who =
  | "owner"
  | "admin"
  | "memberCreator"
  | "memberAssignee"
  | "memberOther"
  | "viewerPlain"
  | "viewerCollabViewer"
  | "viewerCollabCommenter"
  | "viewerCollabEditor"
  | "memberCollabEditor"
  | "otherOrg"
  | "shareToken";

type Op = "read" | "readPrd" | "listed" | "update" | "savePrd" | "comment" | "manageShare" | "delete";

const ALLOW = "allow";
type Expect = typeof ALLOW | 401 | 403 | 404;

// allow / status code per operation
const MATRIX: Record<Who, Record<Op, Expect>> = {
  owner: { read: ALLOW, readPrd: ALLOW, listed: ALLOW, update: ALLOW, savePrd: ALLOW, comment: ALLOW, manageShare: ALLOW, delete: ALLOW },
  admin: { read: ALLOW, readPrd: ALLOW, listed: ALLOW, update: ALLOW, savePrd: ALLOW, comment: ALLOW, manageShare: ALLOW, delete: ALLOW },
  memberCreator: { read: ALLOW, readPrd: ALLOW, listed: ALLOW, update: ALLOW, savePrd: ALLOW, comment: ALLOW, manageShare: ALLOW, delete: ALLOW },
  memberAssignee: { read: ALLOW, readPrd: ALLOW, listed: ALLOW, update: ALLOW, savePrd: ALLOW, comment: ALLOW, manageShare: ALLOW, delete: 403 },
  memberCollabEditor: { read: ALLOW, readPrd: ALLOW, listed: ALLOW, update: ALLOW, savePrd: ALLOW, comment: ALLOW, manageShare: ALLOW, delete: 403 },
  memberOther: { read: ALLOW, readPrd: ALLOW, listed: ALLOW, update: 403, savePrd: 403, comment: ALLOW, manageShare: 403, delete: 403 },
  viewerPlain: { read: 404, readPrd: 404, listed: 404, update: 404, savePrd: 404, comment: 404, manageShare: 404, delete: 404 },
  viewerCollabViewer: { read: ALLOW, readPrd: ALLOW, listed: ALLOW, update: 403, savePrd: 403, comment: 403, manageShare: 403, delete: 403 },
  viewerCollabCommenter: { read: ALLOW, readPrd: ALLOW, listed: ALLOW, update: 403, savePrd: 403, comment: ALLOW, manageShare: 403, delete: 403 },
  viewerCollabEditor: { read: ALLOW, readPrd: ALLOW, listed: ALLOW, update: ALLOW, savePrd: ALLOW, comment: ALLOW, manageShare: 403, delete: 403 },
  otherOrg: { read: 404, readPrd: 404, listed: 404, update: 404, savePrd: 404, comment: 404, manageShare: 404, delete: 404 },
  shareToken: { read: ALLOW, readPrd: ALLOW, listed: 401, update: 401, savePrd: 401, comment: 401, manageShare: 401, delete: 401 },
};

const clients = {} as Record<Exclude<Who, "shareToken">, TestClient>;
const userIds = {} as Record<string, string>;
let orgId: string;
let shareToken: string;

async function joinOrg(role: Role) {
  const { client, user } = await signedUpClient({ name: `User ${role}` });
  await addMembership(db, orgId, user.id, role);
  await db.updateTable("sessions").set({ orgId }).where("userId", "=", user.id).execute();
  return { client, userId: user.id as string };
}

async function newProject() {
  const res = await clients.memberCreator.post("/api/projects", { name: "Matrix", assignedToId: userIds.memberAssignee });
  expect(res.status).toBe(201);
  const id = res.body.id as string;
  const prd = await clients.owner.post(`/api/projects/${id}/prd`, { content: "# PRD\n\n## Scope\nEverything" });
  expect(prd.status).toBe(201);
  for (const [who, role] of [
    ["viewerCollabViewer", "viewer"],
    ["viewerCollabCommenter", "commenter"],
    ["viewerCollabEditor", "editor"],
    ["memberCollabEditor", "editor"],
  ] as const) {
    await db
      .insertInto("projectCollaborators")
      .values({ id: newId(), projectId: id, userId: userIds[who]!, role, addedById: null, createdAt: nowIso() })
      .execute();
  }
  return id;
}

beforeAll(async () => {
  const owner = await signedUpClient({ name: "Owner" });
  orgId = owner.organization.id;
  await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", orgId).execute();
  clients.owner = owner.client;
  userIds.owner = owner.user.id;
  const roles: [Exclude<Who, "owner" | "otherOrg" | "shareToken">, Role][] = [
    ["admin", "admin"],
    ["memberCreator", "member"],
    ["memberAssignee", "member"],
    ["memberOther", "member"],
    ["memberCollabEditor", "member"],
    ["viewerPlain", "viewer"],
    ["viewerCollabViewer", "viewer"],
    ["viewerCollabCommenter", "viewer"],
    ["viewerCollabEditor", "viewer"],
  ];
  for (const [who, role] of roles) {
    const { client, userId } = await joinOrg(role);
    clients[who] = client;
    userIds[who] = userId;
  }
  clients.otherOrg = (await signedUpClient({ name: "Stranger" })).client;
});

async function attempt(who: Who, op: Op, projectId: string): Promise<number | boolean> {
  if (who === "shareToken") {
    const c = new TestClient("10.77.0.1");
    const headers = { "x-share-token": shareToken };
    switch (op) {
      case "read":
        return (await c.get(`/api/projects/${projectId}`, { headers })).status;
      case "readPrd":
        return (await c.get(`/api/projects/${projectId}/prd`, { headers })).status;
      case "listed":
        return (await c.get(`/api/projects`, { headers })).status;
      case "update":
        return (await c.patch(`/api/projects/${projectId}`, { name: "x" }, { headers })).status;
      case "savePrd":
        return (await c.post(`/api/projects/${projectId}/prd`, { content: "x" }, { headers })).status;
      case "comment":
        return (await c.post(`/api/projects/${projectId}/comments`, { content: "x" }, { headers })).status;
      case "manageShare":
        return (await c.post(`/api/projects/${projectId}/share`, {}, { headers })).status;
      case "delete":
        return (await c.delete(`/api/projects/${projectId}`, { headers })).status;
    }
  }
  const c = clients[who];
  switch (op) {
    case "read":
      return (await c.get(`/api/projects/${projectId}`)).status;
    case "readPrd":
      return (await c.get(`/api/projects/${projectId}/prd`)).status;
    case "listed": {
      const res = await c.get(`/api/projects?limit=200`);
      expect(res.status).toBe(200);
      const listed = res.body.projects.some((p: { id: string }) => p.id === projectId);
      return listed ? 200 : 404;
    }
    case "update":
      return (await c.patch(`/api/projects/${projectId}`, { description: `edited by ${who}` })).status;
    case "savePrd":
      return (await c.post(`/api/projects/${projectId}/prd`, { content: `# PRD by ${who}` })).status;
    case "comment":
      return (await c.post(`/api/projects/${projectId}/comments`, { content: `hello from ${who}` })).status;
    case "manageShare":
      return (await c.post(`/api/projects/${projectId}/share`, {})).status;
    case "delete":
      return (await c.delete(`/api/projects/${projectId}`)).status;
  }
}

describe("project access matrix", () => {
  const whos = Object.keys(MATRIX) as Who[];
  const ops: Op[] = ["read", "readPrd", "listed", "update", "savePrd", "comment", "manageShare"];

  it.each(whos)("%s", async (who) => {
    const projectId = await newProject();
    const share = await clients.owner.post(`/api/projects/${projectId}/share`, {});
    shareToken = share.body.shareToken;
    for (const op of ops) {
      const status = await attempt(who, op, projectId);
      const expected = MATRIX[who][op];
      if (expected === ALLOW) expect([200, 201], `${who} ${op}`).toContain(status);
      else expect(status, `${who} ${op}`).toBe(expected);
    }
    // Delete last: it removes the project.
    const status = await attempt(who, "delete", projectId);
    const expected = MATRIX[who].delete;
    if (expected === ALLOW) {
      expect(status, `${who} delete`).toBe(200);
      expect((await clients.owner.get(`/api/projects/${projectId}`)).status).toBe(404);
    } else {
      expect(status, `${who} delete`).toBe(expected);
      expect((await clients.owner.get(`/api/projects/${projectId}`)).status).toBe(200);
    }
  });

  it("deleting a project removes its PRD, versions, comments, files, share and search row in one go", async () => {
    const projectId = await newProject();
    await clients.owner.post(`/api/projects/${projectId}/comments`, { content: "bye" });
    await clients.owner.post(`/api/projects/${projectId}/share`, {});
    const form = new FormData();
    form.append("file", new File(["hello"], "a.txt", { type: "text/plain" }));
    expect((await clients.owner.call("POST", `/api/projects/${projectId}/files`, { body: form })).status).toBe(201);
    const seq = (await db.selectFrom("projects").select("seq").where("id", "=", projectId).executeTakeFirstOrThrow()).seq;
    expect((await clients.owner.delete(`/api/projects/${projectId}`)).status).toBe(200);
    for (const table of ["prds", "prdVersions", "comments", "projectShares", "projectFiles", "projectCollaborators", "projectActivity"] as const) {
      const rows = await db.selectFrom(table).select("projectId").where("projectId", "=", projectId).execute();
      expect(rows, table).toEqual([]);
    }
    expect(await db.selectFrom("projectSearch").select("rowid").where("rowid", "=", seq).execute()).toEqual([]);
  });
});
