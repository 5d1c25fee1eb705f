import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { ensureSystemTemplates } from "~/domain/templates/system.server";
import { newId } from "~/utils/ids.server";
import { GOOD_PASSWORD, signedUpClient, TestClient } from "../support/client";
import { type Account, expectError, joinOrg } from "../support/org";

async function newProject(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post("/api/projects", body);
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function aiCall(orgId: string, userId: string, projectId: string | null, tokens: [number, number], daysAgo = 0) {
  await db
    .insertInto("aiCalls")
    .values({
      id: newId(),
      orgId,
      userId,
      projectId,
      task: "generate",
      provider: "offline",
      model: "test",
      keySource: "platform",
      inputTokens: tokens[0],
      outputTokens: tokens[1],
      outcome: "ok",
      durationMs: 5,
      createdAt: new Date(Date.now() - daysAgo * 86_400_000).toISOString(),
    })
    .execute();
}

let owner: Account;
let admin: Account;
let member: Account;
let viewer: Account;
let other: Account;
let orgA: string;
let p1: string;
let p2: string;

beforeAll(async () => {
  await ensureSystemTemplates();
  owner = await signedUpClient({ name: "Olga Owner" });
  orgA = owner.organization.id;
  admin = await joinOrg(orgA, "admin", "Adam Admin");
  member = await joinOrg(orgA, "member", "Mia Member");
  viewer = await joinOrg(orgA, "viewer", "Vic Viewer");
  other = await signedUpClient({ name: "Otto Other" });
  await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", orgA).execute();

  p1 = await newProject(owner.client, { name: "Alpha", templateId: "sys-standard-prd" });
  p2 = await newProject(owner.client, { name: "Beta", templateId: "sys-standard-prd" });
  await newProject(member.client, { name: "Gamma", templateId: "sys-lean-one-pager", priority: "high" });
  expect((await owner.client.patch(`/api/projects/${p2}/status`, { status: "IN_PROGRESS" })).status).toBeLessThan(300);
  await newProject(other.client, { name: "Other org project" });

  await aiCall(orgA, owner.user.id, p1, [100, 50]);
  await aiCall(orgA, member.user.id, p2, [10, 5], 3);
  await aiCall(orgA, owner.user.id, p1, [1000, 1000], 40); // outside 30 days
  await aiCall(other.organization.id, other.user.id, null, [7, 7]);
  expect((await member.client.post("/api/user/activity", {})).status).toBe(200);
});

describe("GET /api/admin/dashboard", () => {
  it("returns counts, status breakdown, recent projects, user stats and the timeline of this org only", async () => {
    const res = await admin.client.get("/api/admin/dashboard");
    expect(res.status, res.text).toBe(200);
    const d = res.body;
    expect(d.projects).toMatchObject({ total: 3, createdLast7Days: 3, createdLast30Days: 3 });
    const byStatus = Object.fromEntries(d.projects.byStatus.map((s: any) => [s.status, s.count]));
    expect(byStatus).toMatchObject({ DRAFT: 2, IN_PROGRESS: 1, ARCHIVED: 0 });
    expect(d.recentProjects.map((p: any) => p.name).sort()).toEqual(["Alpha", "Beta", "Gamma"]);
    expect(d.users).toMatchObject({ total: 4, byRole: { owner: 1, admin: 1, member: 1, viewer: 1 }, activeLast7Days: 1, activeLast30Days: 1 });
    expect(d.activity).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(d.activity.at(-1).date).toBe(today);
    expect(d.activity.at(-1).count).toBeGreaterThan(0);
    const mine = await other.client.get("/api/admin/dashboard");
    expect(mine.body.projects.total).toBe(1);
    expect(mine.body.users.total).toBe(1);
  });

  it("refuses members and viewers (403)", async () => {
    expectError(await member.client.get("/api/admin/dashboard"), 403, "FORBIDDEN");
    expectError(await viewer.client.get("/api/admin/dashboard"), 403, "FORBIDDEN");
    expectError(await new TestClient("10.99.0.1").get("/api/admin/dashboard"), 401, "UNAUTHORIZED");
  });
});

describe("GET /api/admin/projects", () => {
  it("lists every project of the org with the project filters", async () => {
    const all = await owner.client.get("/api/admin/projects");
    expect(all.status, all.text).toBe(200);
    expect(all.body.total).toBe(3);
    const lean = await owner.client.get("/api/admin/projects?template=sys-lean-one-pager");
    expect(lean.body.projects.map((p: any) => p.name)).toEqual(["Gamma"]);
    const draftHigh = await owner.client.get("/api/admin/projects?status=DRAFT&priority=high&sortBy=name");
    expect(draftHigh.body.projects.map((p: any) => p.name)).toEqual(["Gamma"]);
    const search = await owner.client.get("/api/admin/projects?search=alp");
    expect(search.body.projects.map((p: any) => p.name)).toEqual(["Alpha"]);
    expectError(await owner.client.get("/api/admin/projects?sortBy=nope"), 400, "VALIDATION_ERROR");
    expectError(await member.client.get("/api/admin/projects"), 403, "FORBIDDEN");
  });

  it("sorts by the spec's `sort`: a field ascending, `-field` descending", async () => {
    const names = async (qs: string) => {
      const res = await owner.client.get(`/api/admin/projects?${qs}`);
      expect(res.status, res.text).toBe(200);
      return res.body.projects.map((p: any) => p.name);
    };
    expect(await names("sort=name")).toEqual(["Alpha", "Beta", "Gamma"]);
    expect(await names("sort=-name")).toEqual(["Gamma", "Beta", "Alpha"]);
    expect(await names("sort=-name&limit=2")).toEqual(["Gamma", "Beta"]);
    expect(await names("sort=-name&limit=2&offset=2")).toEqual(["Alpha"]);
    // Same order as sortBy/sortOrder.
    expect(await names("sort=createdAt")).toEqual(await names("sortBy=createdAt&sortOrder=asc"));
    expect(await names("sort=-createdAt")).toEqual(await names("sortBy=createdAt&sortOrder=desc"));
    expect(await names("sort=priority")).toEqual(await names("sortBy=priority&sortOrder=asc"));
    const bad = await owner.client.get("/api/admin/projects?sort=nope");
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.details[0].path).toBe("sort");
    expectError(await owner.client.get("/api/admin/projects?sort=name&sortOrder=desc"), 400, "VALIDATION_ERROR");
    const doc = (await owner.client.get("/api/openapi.json")).body;
    const param = doc.paths["/api/admin/projects"].get.parameters.find((p: any) => p.name === "sort");
    expect(param.schema.enum).toEqual(expect.arrayContaining(["name", "-name", "updatedAt", "-updatedAt"]));
  });

  it("filters by assignee (or unassigned) and by creation date range", async () => {
    const assign = await owner.client.patch(`/api/projects/${p1}/assign`, { assignedToId: member.user.id });
    expect(assign.status, assign.text).toBeLessThan(300);
    const names = async (qs: string) => {
      const res = await owner.client.get(`/api/admin/projects?sortBy=name&${qs}`);
      expect(res.status, res.text).toBe(200);
      return res.body.projects.map((p: any) => p.name);
    };
    expect(await names(`assignedToId=${member.user.id}`)).toEqual(["Alpha"]);
    expect(await names(`assignee=${member.user.id}`)).toEqual(["Alpha"]);
    expect(await names("assignedToId=none")).toEqual(["Beta", "Gamma"]);

    const created = (await db.selectFrom("projects").select("createdAt").where("id", "=", p2).executeTakeFirstOrThrow()).createdAt;
    await db.updateTable("projects").set({ createdAt: "2026-01-15T10:00:00.000Z" }).where("id", "=", p2).execute();
    expect(await names("createdFrom=2026-01-15&createdTo=2026-01-15")).toEqual(["Beta"]);
    expect(await names("dateFrom=2026-01-01&dateTo=2026-01-14")).toEqual([]);
    expect(await names("createdTo=2026-02-01")).toEqual(["Beta"]);
    expect(await names("createdFrom=2026-02-01T00:00:00Z")).toEqual(["Alpha", "Gamma"]);
    expectError(await owner.client.get("/api/admin/projects?createdFrom=yesterday"), 400, "VALIDATION_ERROR");
    expectError(await owner.client.get("/api/admin/projects?createdFrom=2026-03-01&createdTo=2026-02-01"), 400, "VALIDATION_ERROR");
    // Another organization's admin sees none of them.
    const theirs = await other.client.get(`/api/admin/projects?assignedToId=${member.user.id}`);
    expect(theirs.body.total).toBe(0);
    await db.updateTable("projects").set({ createdAt: created }).where("id", "=", p2).execute();
  });
});

describe("GET /api/admin/analytics/usage", () => {
  it("sums AI calls and tokens per day within the period, with projects created", async () => {
    const res = await owner.client.get("/api/admin/analytics/usage?days=7");
    expect(res.status, res.text).toBe(200);
    expect(res.body.days).toBe(7);
    expect(res.body.ai).toMatchObject({ calls: 2, inputTokens: 110, outputTokens: 55, tokens: 165 });
    expect(res.body.ai.perDay).toHaveLength(7);
    expect(res.body.ai.perDay.at(-1)).toMatchObject({ calls: 1, tokens: 150 });
    expect(res.body.projects.created).toBe(3);
    expect(res.body.templateMetrics).toBeUndefined();
    expect(res.body.alerts).toBeUndefined();
    const ninety = await owner.client.get("/api/admin/analytics/usage?days=90");
    expect(ninety.body.ai.calls).toBe(3);
    expect(ninety.body.ai.perDay).toHaveLength(90);
    const byUser = await owner.client.get(`/api/admin/analytics/usage?days=30&userId=${member.user.id}`);
    expect(byUser.body.ai).toMatchObject({ calls: 1, tokens: 15 });
    expect(byUser.body.projects.created).toBe(1);
    const byProject = await owner.client.get(`/api/admin/analytics/usage?projectId=${p1}`);
    expect(byProject.body.days).toBe(30);
    expect(byProject.body.ai.calls).toBe(1);
  });

  it("adds template metrics and alerts on request", async () => {
    const res = await owner.client.get("/api/admin/analytics/usage?templateMetrics=true&alerts=true");
    expect(res.status, res.text).toBe(200);
    expect(res.body.templateMetrics).toEqual([
      expect.objectContaining({ templateId: "sys-standard-prd", projects: 2, projectsInPeriod: 2 }),
      expect.objectContaining({ templateId: "sys-lean-one-pager", projects: 1 }),
    ]);
    expect(Array.isArray(res.body.alerts)).toBe(true);
    // Free plan allows 3 members: a 4th member puts "members" over 100%.
    await db.updateTable("organizations").set({ plan: "free" }).where("id", "=", orgA).execute();
    const free = await owner.client.get("/api/admin/analytics/usage?alerts=1");
    expect(free.body.alerts).toEqual(expect.arrayContaining([expect.objectContaining({ metric: "members", level: "critical" })]));
    await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", orgA).execute();
  });

  it("validates days and flags, and refuses non-admins", async () => {
    for (const q of ["days=14", "days=abc", "days=", "alerts=maybe"]) {
      expectError(await owner.client.get(`/api/admin/analytics/usage?${q}`), 400, "VALIDATION_ERROR");
    }
    expectError(await member.client.get("/api/admin/analytics/usage"), 403, "FORBIDDEN");
    expectError(await viewer.client.get("/api/admin/analytics/usage"), 403, "FORBIDDEN");
  });
});

describe("POST /api/admin/settings/delete-all-projects", () => {
  it("needs an admin; a confirmName sent must match; then deletes only this org's projects", async () => {
    const name = owner.organization.name as string;
    expectError(await member.client.post("/api/admin/settings/delete-all-projects", { confirmName: name }), 403, "FORBIDDEN");
    const wrong = await admin.client.post("/api/admin/settings/delete-all-projects", { confirmName: "wrong" });
    expectError(wrong, 400, "VALIDATION_ERROR");
    expect(wrong.body.details).toEqual([{ path: "confirmName", message: "The name does not match the organization's name" }]);
    expectError(await admin.client.post("/api/admin/settings/delete-all-projects", { confirmName: "" }), 400, "VALIDATION_ERROR");
    expect((await db.selectFrom("projects").select("id").where("orgId", "=", orgA).execute()).length).toBe(3);

    const res = await admin.client.post("/api/admin/settings/delete-all-projects", { confirmName: name });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true, deleted: 3 });
    expect((await db.selectFrom("projects").select("id").where("orgId", "=", orgA).execute()).length).toBe(0);
    expect((await db.selectFrom("projects").select("id").where("orgId", "=", other.organization.id).execute()).length).toBe(1);
    const audit = await db.selectFrom("auditLogs").selectAll().where("orgId", "=", orgA).where("action", "=", "project.bulk_deleted").execute();
    expect(audit).toHaveLength(1);
    const events = await db.selectFrom("events").select("data").where("orgId", "=", orgA).where("name", "=", "project.deleted").execute();
    expect(events.map((e) => JSON.parse(e.data).projectId)).toEqual(expect.arrayContaining([p1, p2]));
    expect((await owner.client.get("/api/admin/dashboard")).body.projects.total).toBe(0);
  });

  it("works as the spec documents it: without a body (and with an empty JSON object)", async () => {
    const boss = await signedUpClient({ name: "Bodyless Owner" });
    await newProject(boss.client, { name: "One" });
    await newProject(boss.client, { name: "Two" });
    const bare = await boss.client.call("POST", "/api/admin/settings/delete-all-projects");
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body).toEqual({ success: true, deleted: 2 });
    await newProject(boss.client, { name: "Three" });
    expect((await boss.client.post("/api/admin/settings/delete-all-projects", {})).body).toEqual({ success: true, deleted: 1 });
    // Another organization's projects are untouched.
    expect((await db.selectFrom("projects").select("id").where("orgId", "=", other.organization.id).execute()).length).toBe(1);
  });
});

describe("POST /api/admin/settings/delete-organization", () => {
  it("is owner only, needs the name, and moves members' sessions to their other organization", async () => {
    const name = owner.organization.name as string;
    await newProject(owner.client, { name: "Doomed" });
    expectError(await admin.client.post("/api/admin/settings/delete-organization", { confirmName: name }), 403, "FORBIDDEN");
    expectError(await owner.client.post("/api/admin/settings/delete-organization", { confirmName: `${name}x` }), 400, "VALIDATION_ERROR");

    const res = await owner.client.post("/api/admin/settings/delete-organization", { confirmName: name });
    expect(res.status, res.text).toBe(200);
    expect(res.body.success).toBe(true);
    expect(await db.selectFrom("organizations").select("id").where("id", "=", orgA).executeTakeFirst()).toBeUndefined();
    expect((await db.selectFrom("projects").select("id").where("orgId", "=", orgA).execute()).length).toBe(0);
    const platform = await db.selectFrom("auditLogs").selectAll().where("action", "=", "organization.deleted").where("targetId", "=", orgA).execute();
    expect(platform).toHaveLength(1);
    expect(platform[0]!.orgId).toBeNull();

    // The member's session moved to the organization they registered with.
    const me = await member.client.get("/api/auth/me");
    expect(me.status, me.text).toBe(200);
    expect(me.body.organization.id).toBe(member.organization.id);
    // The owner's personal organization is gone; signing in again still works for the admin.
    const fresh = new TestClient("10.99.0.2");
    const signIn = await fresh.post("/api/auth/sign-in", { email: admin.email, password: GOOD_PASSWORD });
    expect(signIn.status, signIn.text).toBe(200);
    expect((await fresh.get("/api/auth/me")).body.organization.id).toBe(admin.organization.id);
    // The other organization is untouched.
    expect((await other.client.get("/api/admin/dashboard")).body.projects.total).toBe(1);
  });

  it("works without a body for the owner; admins are still refused", async () => {
    const boss = await signedUpClient({ name: "Bodyless Boss" });
    const deputy = await joinOrg(boss.organization.id, "admin", "Bodyless Deputy");
    await newProject(boss.client, { name: "Gone soon" });
    expectError(await deputy.client.call("POST", "/api/admin/settings/delete-organization"), 403, "FORBIDDEN");
    const res = await boss.client.call("POST", "/api/admin/settings/delete-organization");
    expect(res.status, res.text).toBe(200);
    expect(res.body.success).toBe(true);
    expect(await db.selectFrom("organizations").select("id").where("id", "=", boss.organization.id).executeTakeFirst()).toBeUndefined();
  });
});

describe("administration dashboard and danger zone pages (no JavaScript)", () => {
  const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
  const postForm = (client: TestClient, path: string, fields: [string, string][]) =>
    client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM });

  it("renders the dashboard with the period selector, and refuses members", async () => {
    const boss = await signedUpClient({ name: "Page Owner" });
    await newProject(boss.client, { name: "Page project" });
    const page = await boss.client.get("/admin/dashboard?days=7");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Projects by status");
    expect(page.text).toContain("Page project");
    expect(page.text).toMatch(/<option value="7" selected/);
    expect(page.text).toContain('href="/admin/danger"');
    expect((await boss.client.get("/admin/dashboard?days=12")).status).toBe(200);
    const m = await joinOrg(boss.organization.id, "member", "Page Member");
    expect((await m.client.get("/admin/dashboard")).text).not.toContain("Projects by status");
  });

  it("deletes all projects and the organization through the forms", async () => {
    const boss = await signedUpClient({ name: "Form Owner" });
    const name = boss.organization.name as string;
    await newProject(boss.client, { name: "Form project" });
    const wrong = await postForm(boss.client, "/admin/danger", [
      ["intent", "delete-all-projects"],
      ["confirmName", "nope"],
    ]);
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain("does not match");
    // The page keeps the typed confirmation: without the name nothing is deleted.
    const missing = await postForm(boss.client, "/admin/danger", [["intent", "delete-all-projects"]]);
    expect(missing.status).toBe(400);
    expect(missing.text).toContain("Type the organization");
    expect((await db.selectFrom("projects").select("id").where("orgId", "=", boss.organization.id).execute()).length).toBe(1);
    const ok = await postForm(boss.client, "/admin/danger", [
      ["intent", "delete-all-projects"],
      ["confirmName", name],
    ]);
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/admin/danger?deleted=1");
    expect((await db.selectFrom("projects").select("id").where("orgId", "=", boss.organization.id).execute()).length).toBe(0);

    const gone = await postForm(boss.client, "/admin/danger", [
      ["intent", "delete-organization"],
      ["confirmName", name],
    ]);
    expect(gone.status).toBe(302);
    expect(gone.headers.get("Location")).toBe("/sign-in");
    expect(await db.selectFrom("organizations").select("id").where("id", "=", boss.organization.id).executeTakeFirst()).toBeUndefined();
    expect((await boss.client.get("/api/auth/me")).status).toBe(401);
  });
});
