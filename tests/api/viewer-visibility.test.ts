import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { runDueJobs } from "~/jobs/worker.server";
import { sendWeeklyDigests } from "~/domain/notifications/digest.server";
import { useAiMocks } from "../mocks/server";
import { setEnv } from "../support/ai";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";
import { rawPost } from "./exports-support";

registerBackgroundWork();

/**
 * One visibility rule (docs/projects.md; `readableProjects` in
 * app/domain/projects/access.server.ts): owner and admin see every project
 * of the organization, a member reads all of them, a viewer reads only the
 * projects shared with them as a collaborator, and nobody sees another
 * organization's. The same viewer is run through every listing, every
 * search mode, every export over many projects, the scheduled exports, the
 * weekly digest and the personal data export; each must show exactly the
 * one shared project. If any one query drops the rule, this file fails.
 */

useAiMocks();

let owner: Account, member: Account, viewer: Account, outsider: Account;
/** Org A: shared with the viewer (she created it as a member), created by her and not shared, the owner's and not shared. Org B: foreign. */
const id = { shared: "", ownedNotShared: "", notShared: "", foreign: "" };
const NAME = {
  shared: "Zephyr Shared Alpha",
  ownedNotShared: "Zephyr Vera Gamma",
  notShared: "Zephyr Private Beta",
  foreign: "Zephyr Foreign Delta",
};
const ORG_A = () => [id.shared, id.ownedNotShared, id.notShared].sort();
/** Every PRD says the same, so keyword and semantic search would return all four if a query forgot the rule. */
const BODY = "Zephyr telemetry for wind turbine operators: gearbox vibration alerts and blade pitch reports.";
const prd = (name: string) => `# ${name}\n\n${BODY}\n\n## Requirements\n\n- Must: alert on gearbox vibration\n`;

async function create(account: Account, name: string) {
  const res = await account.client.post("/api/projects", { name, description: BODY });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}
async function savePrd(account: Account, projectId: string, name: string) {
  const res = await account.client.post(`/api/projects/${projectId}/prd`, { content: prd(name) });
  expect(res.status, res.text).toBeLessThan(300);
}

const schedule = (projectId: string) => ({
  projectId,
  scheduleType: "weekly",
  format: "html",
  timezone: "Europe/Berlin",
  deliveryMethod: "email",
  recipients: ["team@example.com"],
});

const sorted = (ids: string[]) => [...ids].sort();
const projectIds = (res: { body: { projects: { id: string }[] } }) => sorted(res.body.projects.map((p) => p.id));
const resultIds = (res: { body: { results: { projectId: string }[] } }) => sorted(res.body.results.map((r) => r.projectId));
const allNames = Object.values(NAME);
/** The names of `visible` appear in the text, the other names of the fixture do not. */
function expectOnlyNames(text: string, visible: string[]) {
  for (const name of allNames) {
    if (visible.includes(name)) expect(text, `${name} should be shown`).toContain(name);
    else expect(text, `${name} must not be shown`).not.toContain(name);
  }
}

beforeAll(async () => {
  setEnv({ OPENAI_API_KEY: "sk-platform-embed-0000000000" });
  owner = await signedUpClient({ name: "Olive Owner" });
  outsider = await signedUpClient({ name: "Oscar Outsider" });
  await setPlan(owner.organization.id, "pro");
  await setPlan(outsider.organization.id, "pro");
  member = await joinOrg(owner.organization.id, "member", "Mia Member");
  // Vera starts as a member and creates two projects, then becomes a viewer with one of them shared back.
  viewer = await joinOrg(owner.organization.id, "member", "Vera Viewer");
  id.shared = await create(viewer, NAME.shared);
  id.ownedNotShared = await create(viewer, NAME.ownedNotShared);
  id.notShared = await create(owner, NAME.notShared);
  id.foreign = await create(outsider, NAME.foreign);
  // The owner's changes are the activity a digest reports (a digest leaves out the reader's own changes).
  for (const key of ["shared", "ownedNotShared", "notShared"] as const) await savePrd(owner, id[key], NAME[key]);
  await savePrd(outsider, id.foreign, NAME.foreign);
  // Embeds every PRD (semantic search) and delivers the events so far.
  await runDueJobs();
  // Assigned to her: the one shared, one not shared, and (as if she had left organization B) the foreign one.
  await db.updateTable("projects").set({ assignedToId: viewer.user.id }).where("id", "in", [id.shared, id.notShared, id.foreign]).execute();
  await db.updateTable("memberships").set({ role: "viewer" }).where("userId", "=", viewer.user.id).where("orgId", "=", owner.organization.id).execute();
  const shared = await owner.client.post(`/api/projects/${id.shared}/collaborators`, { email: viewer.email, role: "viewer" });
  expect(shared.status, shared.text).toBe(201);
  // Schedules on every project, made by those who may.
  for (const key of ["shared", "ownedNotShared", "notShared"] as const) {
    const res = await owner.client.post("/api/scheduled-exports", schedule(id[key]));
    expect(res.status, res.text).toBe(201);
  }
  const foreign = await outsider.client.post("/api/scheduled-exports", schedule(id.foreign));
  expect(foreign.status, foreign.text).toBe(201);
  await viewer.client.patch("/api/user/notification-preferences", { weeklyDigest: true });
  await member.client.patch("/api/user/notification-preferences", { weeklyDigest: true });
  await runDueJobs();
});

afterAll(() => setEnv({ OPENAI_API_KEY: undefined }));

describe("GET /api/projects: every filter", () => {
  const QUERIES = [
    "",
    "search=zephyr",
    "search=Ze",
    "status=DRAFT",
    "sortBy=name&sortOrder=asc",
    "sortBy=priority",
    "sortBy=status",
    "assignedToMe=true",
    "assignedToId=VIEWER",
    "createdFrom=2000-01-01",
    "limit=1",
  ];
  const query = (q: string) => (q ? `/api/projects?${q.replace("VIEWER", viewer.user.id)}` : "/api/projects");

  it("the viewer sees exactly the project shared with her, whatever the filter", async () => {
    for (const q of QUERIES) {
      const res = await viewer.client.get(query(q));
      expect(res.status, `${q}: ${res.text}`).toBe(200);
      expect(projectIds(res), q).toEqual([id.shared]);
      expect(res.body.total, q).toBe(1);
    }
    // Past the only row: an empty page, still a total of one.
    const past = await viewer.client.get("/api/projects?offset=1");
    expect(past.body).toMatchObject({ projects: [], total: 1 });
  });

  it("the member and the owner see every project of the organization, nobody sees another organization's", async () => {
    for (const who of [member, owner]) {
      const res = await who.client.get("/api/projects?limit=200");
      expect(projectIds(res)).toEqual(ORG_A());
      expect(res.body.total).toBe(3);
      const assigned = await who.client.get(`/api/projects?assignedToId=${viewer.user.id}`);
      expect(projectIds(assigned)).toEqual(sorted([id.shared, id.notShared]));
    }
    expect(projectIds(await outsider.client.get("/api/projects"))).toEqual([id.foreign]);
  });

  it("reading one project follows the same rule", async () => {
    expect((await viewer.client.get(`/api/projects/${id.shared}`)).status).toBe(200);
    for (const other of [id.notShared, id.ownedNotShared, id.foreign]) {
      expectError(await viewer.client.get(`/api/projects/${other}`), 404, "NOT_FOUND");
    }
    expect((await member.client.get(`/api/projects/${id.notShared}`)).status).toBe(200);
    expectError(await member.client.get(`/api/projects/${id.foreign}`), 404, "NOT_FOUND");
  });
});

describe("GET /api/search: keyword, semantic and hybrid", () => {
  const search = (who: Account, q: string, mode: string) => who.client.get(`/api/search?${new URLSearchParams({ q, mode })}`);

  it("the viewer finds only the shared project in every mode, and the mode really ran", async () => {
    for (const [q, mode] of [
      ["zephyr", "keyword"],
      ["gearbox vib", "keyword"],
      [BODY, "semantic"],
      ["zephyr gearbox vibration", "hybrid"],
    ] as const) {
      const res = await search(viewer, q, mode);
      expect(res.status, res.text).toBe(200);
      expect(res.body.mode, `${mode}: ${res.body.notice ?? ""}`).toBe(mode);
      expect(resultIds(res), `${mode} ${q}`).toEqual([id.shared]);
      expect(res.body.total, mode).toBe(1);
    }
  });

  it("the member finds every project of the organization in every mode, never the other organization's", async () => {
    for (const [q, mode] of [
      ["zephyr", "keyword"],
      [BODY, "semantic"],
      ["zephyr gearbox vibration", "hybrid"],
    ] as const) {
      for (const who of [member, viewer, member]) {
        // Same query by a member, then the viewer, then the member again: cached results never cross readers.
        const res = await search(who, q, mode);
        expect(res.body.mode).toBe(mode);
        expect(resultIds(res), `${mode} as ${who === member ? "member" : "viewer"}`).toEqual(who === member ? ORG_A() : [id.shared]);
      }
    }
    const foreign = await search(outsider, BODY, "semantic");
    expect(foreign.body.mode).toBe("semantic");
    expect(resultIds(foreign)).toEqual([id.foreign]);
  });
});

describe("administration listings", () => {
  it("the admin project list, dashboard and analytics are for owners and admins, and cover their organization only", async () => {
    for (const who of [viewer, member]) {
      expectError(await who.client.get("/api/admin/projects"), 403, "FORBIDDEN");
      expectError(await who.client.get("/api/admin/dashboard"), 403, "FORBIDDEN");
    }
    const list = await owner.client.get("/api/admin/projects?limit=200");
    expect(list.status, list.text).toBe(200);
    expect(projectIds(list)).toEqual(ORG_A());
    const filtered = await owner.client.get(`/api/admin/projects?assignee=${viewer.user.id}&sortBy=name`);
    expect(projectIds(filtered)).toEqual(sorted([id.shared, id.notShared]));

    const dashboard = await owner.client.get("/api/admin/dashboard");
    expect(dashboard.status, dashboard.text).toBe(200);
    expect(dashboard.body.projects).toMatchObject({ total: 3, createdLast7Days: 3 });
    expect(sorted(dashboard.body.recentProjects.map((p: { id: string }) => p.id))).toEqual(ORG_A());

    const analytics = await owner.client.get("/api/admin/analytics/usage?days=7");
    expect(analytics.status, analytics.text).toBe(200);
    expect(analytics.body.projects.created).toBe(3);
  });
});

describe("exports over many projects", () => {
  it("bulk export: the viewer exports the shared project, and every other id is not found", async () => {
    const ok = await rawPost(viewer.client, "/api/export/bulk", { projectIds: [id.shared], format: "markdown" });
    expect(ok.status, ok.text).toBe(200);
    const files = Object.keys(unzipSync(ok.bytes));
    expect(files.filter((f) => f.endsWith(".md"))).toHaveLength(1);

    const refused = await rawPost(viewer.client, "/api/export/bulk", {
      projectIds: [id.shared, id.notShared, id.ownedNotShared, id.foreign],
      format: "markdown",
    });
    expect(refused.status, refused.text).toBe(404);
    expect(refused.body.details.map((d: { path: string }) => d.path).sort()).toEqual(["projectIds.1", "projectIds.2", "projectIds.3"]);

    const all = await rawPost(member.client, "/api/export/bulk", { projectIds: ORG_A(), format: "markdown" });
    expect(all.status, all.text).toBe(200);
    expect(Object.keys(unzipSync(all.bytes)).filter((f) => f.endsWith(".md"))).toHaveLength(3);
    expect((await rawPost(member.client, "/api/export/bulk", { projectIds: [id.foreign], format: "markdown" })).status).toBe(404);
  });

  it("scheduled exports of the organization: the viewer lists the shared project's schedule only", async () => {
    const mine = await viewer.client.get("/api/scheduled-exports");
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.schedules.map((s: { projectId: string }) => s.projectId)).toEqual([id.shared]);
    expect((await viewer.client.get(`/api/scheduled-exports?projectId=${id.shared}`)).body.schedules).toHaveLength(1);
    expectError(await viewer.client.get(`/api/scheduled-exports?projectId=${id.notShared}`), 404, "NOT_FOUND");

    const all = await member.client.get("/api/scheduled-exports");
    expect(sorted(all.body.schedules.map((s: { projectId: string }) => s.projectId))).toEqual(ORG_A());
    const theirs = await outsider.client.get("/api/scheduled-exports");
    expect(theirs.body.schedules.map((s: { projectId: string }) => s.projectId)).toEqual([id.foreign]);
  });
});

describe("what reaches the viewer outside the API listings", () => {
  it("the weekly digest reports activity on the shared project only", async () => {
    expect(await sendWeeklyDigests()).toBeGreaterThanOrEqual(1);
    const mail = await db
      .selectFrom("emails")
      .select("text")
      .where("toAddress", "=", viewer.email)
      .where("kind", "=", "notification.digest")
      .executeTakeFirstOrThrow();
    // The activity section (her unread notifications come before it).
    const activity = /changes? on your projects in the last 7 days:\n([\s\S]*?)(?:\n\n|$)/.exec(mail.text)?.[1] ?? "";
    expect(activity).toContain(`• ${NAME.shared}:`);
    expectOnlyNames(activity, [NAME.shared]);
  });

  it("the personal data export holds the projects she created and may still read", async () => {
    const res = await viewer.client.get("/api/user/data-export");
    expect(res.status, res.text).toBe(200);
    expect(res.body.projects.map((p: { id: string }) => p.id)).toEqual([id.shared]);
    expectOnlyNames(JSON.stringify(res.body.projects), [NAME.shared]);
  });

  it("the pages that list projects (projects, search, exports, schedules) show the shared project only", async () => {
    for (const path of ["/projects", "/projects?q=zephyr", "/search?q=zephyr", "/exports", "/exports/schedules"]) {
      const page = await viewer.client.get(path);
      expect(page.status, `${path}: ${page.text.slice(0, 300)}`).toBe(200);
      expectOnlyNames(page.text, [NAME.shared]);
    }
    const memberPage = await member.client.get("/projects");
    expectOnlyNames(memberPage.text, [NAME.shared, NAME.ownedNotShared, NAME.notShared]);
  });
});
