process.env.SUPERADMIN_EMAILS = "root@example.com";

import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { type ApiResult, signedUpClient, TestClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan, signedUpSuperadmin } from "../support/org";

/**
 * Every /api/templates and /api/admin/templates route: visibility (public,
 * organization, personal), the "[Protected]" system prompt, who may change
 * what, plan limits, versions and restore.
 */

const SECRET = "SECRET system prompt: never shown to non-superadmins";

async function create(client: TestClient, fields: Record<string, unknown> = {}) {
  const res = await client.post("/api/admin/templates", {
    name: "Tpl",
    description: "A template",
    category: "product",
    systemPrompt: "own prompt",
    ...fields,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const ids = (res: ApiResult) => (res.body.templates as { id: string }[]).map((t) => t.id);

let root: Account;
let owner: Account;
let admin: Account;
let member: Account;
let member2: Account;
let viewer: Account;
let other: Account;
let system: any;
let market: any;
let orgTpl: any;
let personal: any;
let otherOrgTpl: any;

beforeAll(async () => {
  root = await signedUpSuperadmin({ email: "root@example.com", name: "Root" });
  owner = await signedUpClient({ name: "Olive Owner" });
  other = await signedUpClient({ name: "Otto Other" });
  await setPlan(owner.organization.id, "pro");
  await setPlan(other.organization.id, "pro");
  admin = await joinOrg(owner.organization.id, "admin", "Ada Admin");
  member = await joinOrg(owner.organization.id, "member", "Mia Member");
  member2 = await joinOrg(owner.organization.id, "member", "Max Member");
  viewer = await joinOrg(owner.organization.id, "viewer", "Vic Viewer");
  system = await create(root.client, { name: "System One", templateType: "system", systemPrompt: SECRET, category: "sys", isFeatured: true });
  market = await create(root.client, { name: "Market One", templateType: "marketplace", systemPrompt: SECRET, category: "sys" });
  orgTpl = await create(owner.client, { name: "Org Template", systemPrompt: "org prompt" });
  personal = await create(member.client, { name: "Mia Personal", systemPrompt: "mia prompt" });
  otherOrgTpl = await create(other.client, { name: "Other Org Template", systemPrompt: "other prompt" });
});

describe("POST /api/admin/templates", () => {
  it("creates organization templates for owners/admins and personal ones for members by default", async () => {
    expect(orgTpl).toMatchObject({ templateType: "organization", visibility: "organization", orgId: owner.organization.id, systemPrompt: "org prompt" });
    expect(personal).toMatchObject({ templateType: "personal", visibility: "personal", createdById: member.user.id, systemPrompt: "mia prompt" });
    expect(system).toMatchObject({ templateType: "system", visibility: "public", orgId: null, isFeatured: true, systemPrompt: SECRET });
    expect(market).toMatchObject({ templateType: "marketplace", visibility: "public", orgId: null });
    const byAdmin = await create(admin.client, { name: "Admin org", sections: ["Goals", "Scope"], tags: "a, b" });
    expect(byAdmin).toMatchObject({ templateType: "organization", sections: ["Goals", "Scope"], tags: ["a", "b"], pricingTier: "free" });
  });

  it("refuses members creating organization templates, viewers, and platform types for non-superadmins", async () => {
    const base = { name: "x", description: "y", category: "z" };
    expectError(await member.client.post("/api/admin/templates", { ...base, templateType: "organization" }), 403, "FORBIDDEN");
    expectError(await viewer.client.post("/api/admin/templates", base), 403, "FORBIDDEN");
    expectError(await owner.client.post("/api/admin/templates", { ...base, templateType: "system" }), 403, "FORBIDDEN");
    expectError(await owner.client.post("/api/admin/templates", { ...base, templateType: "marketplace" }), 403, "FORBIDDEN");
    expectError(await owner.client.post("/api/admin/templates", { ...base, isFeatured: true }), 403, "FORBIDDEN");
    expectError(await owner.client.post("/api/admin/templates", { ...base, pricingTier: "pro" }), 403, "FORBIDDEN");
  });

  it("validates required fields and needs a session", async () => {
    const res = await owner.client.post("/api/admin/templates", { name: "only a name" });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(res.body.details.map((d: any) => d.path).sort()).toEqual(["category", "description"]);
    expectError(await owner.client.post("/api/admin/templates", { name: "x", description: "y", category: "z", templateType: "nope" }), 400, "VALIDATION_ERROR");
    expectError(await new TestClient("10.77.0.1").post("/api/admin/templates", { name: "x", description: "y", category: "z" }), 401, "UNAUTHORIZED");
  });

  it("enforces the plan's templates limit (Free: 3 personal/organization templates)", async () => {
    const free = await signedUpClient({ name: "Fay Free" });
    for (let i = 1; i <= 3; i++) await create(free.client, { name: `Free ${i}` });
    const over = await free.client.post("/api/admin/templates", { name: "Free 4", description: "d", category: "c" });
    expectError(over, 403, "LIMIT_REACHED");
    expect(over.body).toMatchObject({ metric: "templates", limit: 3, current: 3 });
    const count = await db
      .selectFrom("templates")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("orgId", "=", free.organization.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
  });
});

describe("GET /api/templates and /api/templates/{id}", () => {
  it("lists public, own organization and own personal templates, with [Protected] platform prompts", async () => {
    const res = await member.client.get("/api/templates");
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(expect.arrayContaining([system.id, market.id, orgTpl.id, personal.id]));
    expect(ids(res)).not.toContain(otherOrgTpl.id);
    const byId = new Map((res.body.templates as any[]).map((t) => [t.id, t]));
    expect(byId.get(system.id).systemPrompt).toBe("[Protected]");
    expect(byId.get(market.id).systemPrompt).toBe("[Protected]");
    expect(byId.get(orgTpl.id).systemPrompt).toBe("org prompt");
    expect(byId.get(personal.id).systemPrompt).toBe("mia prompt");
  });

  it("shows the real system prompt to superadmins", async () => {
    const list = await root.client.get("/api/templates");
    expect((list.body.templates as any[]).find((t) => t.id === system.id).systemPrompt).toBe(SECRET);
    expect((await root.client.get(`/api/templates/${market.id}`)).body.systemPrompt).toBe(SECRET);
    expect((await owner.client.get(`/api/templates/${market.id}`)).body.systemPrompt).toBe("[Protected]");
    const got = await owner.client.get(`/api/templates/${system.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: system.id, name: "System One", systemPrompt: "[Protected]" });
  });

  it("keeps personal templates to their creator and organization templates to their organization", async () => {
    for (const c of [owner, member2, admin]) {
      expect(ids(await c.client.get("/api/templates"))).not.toContain(personal.id);
      expectError(await c.client.get(`/api/templates/${personal.id}`), 404, "NOT_FOUND");
    }
    expect((await member.client.get(`/api/templates/${personal.id}`)).status).toBe(200);
    expect((await viewer.client.get(`/api/templates/${orgTpl.id}`)).status).toBe(200);
    expectError(await owner.client.get(`/api/templates/${otherOrgTpl.id}`), 404, "NOT_FOUND");
    expect(ids(await owner.client.get("/api/templates"))).not.toContain(otherOrgTpl.id);
    expect(ids(await other.client.get("/api/templates"))).not.toContain(orgTpl.id);
    expectError(await owner.client.get("/api/templates/does-not-exist"), 404, "NOT_FOUND");
    expectError(await new TestClient("10.77.0.2").get("/api/templates"), 401, "UNAUTHORIZED");
  });

  it("filters by type, category and search, and hides inactive templates", async () => {
    const hidden = await create(owner.client, { name: "Dormant", isActive: false });
    const t = ids(await owner.client.get("/api/templates?type=system"));
    expect(t).toContain(system.id);
    expect(t).not.toContain(orgTpl.id);
    expect(ids(await owner.client.get("/api/templates?category=sys")).sort()).toEqual([system.id, market.id].sort());
    expect(ids(await owner.client.get("/api/templates?search=Market%20One"))).toEqual([market.id]);
    expect(ids(await owner.client.get("/api/templates"))).not.toContain(hidden.id);
    expectError(await owner.client.get("/api/templates?type=bogus"), 400, "VALIDATION_ERROR");
  });
});

describe("versions and restore", () => {
  it("records a version on every change, restores old fields as a new version", async () => {
    const t = await create(owner.client, { name: "Versioned v1", systemPrompt: "p1", sections: ["A"] });
    expect((await owner.client.patch(`/api/admin/templates/${t.id}`, { name: "Versioned v2", note: "rename" })).status).toBe(200);
    expect((await owner.client.patch(`/api/admin/templates/${t.id}`, { systemPrompt: "p3", sections: ["A", "B"] })).status).toBe(200);
    const same = await owner.client.patch(`/api/admin/templates/${t.id}`, { systemPrompt: "p3" });
    expect(same.status).toBe(200);
    const versions = await owner.client.get(`/api/templates/${t.id}/versions`);
    expect(versions.status).toBe(200);
    expect(versions.body.versions.map((v: any) => v.number)).toEqual([3, 2, 1]);
    expect(versions.body.versions[1]).toMatchObject({ note: "rename", createdBy: { id: owner.user.id, name: "Olive Owner" } });
    expect(versions.body.versions[0].snapshot).toMatchObject({ name: "Versioned v2", systemPrompt: "p3", sections: ["A", "B"], isActive: true });
    const v1 = versions.body.versions[2];
    expect(v1.snapshot).toMatchObject({ name: "Versioned v1", systemPrompt: "p1", sections: ["A"] });

    const restored = await owner.client.post(`/api/templates/${t.id}/restore`, { versionId: v1.id });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({ id: t.id, name: "Versioned v1", systemPrompt: "p1", sections: ["A"] });
    const after = await owner.client.get(`/api/templates/${t.id}/versions`);
    expect(after.body.versions[0]).toMatchObject({ number: 4, note: "Restored from version 1" });
    expect(after.body.versions[0].snapshot).toMatchObject({ name: "Versioned v1", systemPrompt: "p1" });
    expect((await owner.client.get(`/api/templates/${t.id}`)).body.name).toBe("Versioned v1");
  });

  it("refuses bad restores and restores by the wrong people", async () => {
    const versions = await owner.client.get(`/api/templates/${orgTpl.id}/versions`);
    const v1 = versions.body.versions.at(-1).id;
    expectError(await owner.client.post(`/api/templates/${orgTpl.id}/restore`, {}), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post(`/api/templates/${orgTpl.id}/restore`, { versionId: "nope" }), 404, "NOT_FOUND");
    const otherVersion = (await owner.client.get(`/api/templates/${personal.id}/versions`)).status;
    expect(otherVersion).toBe(404);
    const miaVersions = await member.client.get(`/api/templates/${personal.id}/versions`);
    expect(miaVersions.status).toBe(200);
    expectError(await owner.client.post(`/api/templates/${orgTpl.id}/restore`, { versionId: miaVersions.body.versions[0].id }), 404, "NOT_FOUND");
    expectError(await member.client.post(`/api/templates/${orgTpl.id}/restore`, { versionId: v1 }), 403, "FORBIDDEN");
    expectError(await other.client.post(`/api/templates/${orgTpl.id}/restore`, { versionId: v1 }), 404, "NOT_FOUND");
    const sysV = (await root.client.get(`/api/templates/${system.id}/versions`)).body.versions[0].id;
    expectError(await owner.client.post(`/api/templates/${system.id}/restore`, { versionId: sysV }), 403, "FORBIDDEN");
  });

  it("lets owners/admins and a personal template's creator read versions; platform versions only for superadmins", async () => {
    expect((await admin.client.get(`/api/templates/${orgTpl.id}/versions`)).status).toBe(200);
    expectError(await member.client.get(`/api/templates/${orgTpl.id}/versions`), 403, "FORBIDDEN");
    expectError(await other.client.get(`/api/templates/${orgTpl.id}/versions`), 404, "NOT_FOUND");
    expectError(await owner.client.get(`/api/templates/${system.id}/versions`), 403, "FORBIDDEN");
    expectError(await member.client.get(`/api/templates/${market.id}/versions`), 403, "FORBIDDEN");
    const sys = await root.client.get(`/api/templates/${system.id}/versions`);
    expect(sys.status).toBe(200);
    expect(sys.body.versions.at(-1).snapshot.systemPrompt).toBe(SECRET);
    const org = await owner.client.get(`/api/templates/${orgTpl.id}/versions`);
    expect(org.body.versions.at(-1).snapshot.systemPrompt).toBe("org prompt");
  });
});

describe("GET /api/admin/templates", () => {
  it("lists the organization's and public templates with filters, sorting and paging", async () => {
    const res = await owner.client.get("/api/admin/templates?limit=200");
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(expect.arrayContaining([system.id, market.id, orgTpl.id]));
    expect(ids(res)).not.toContain(otherOrgTpl.id);
    const bySys = (res.body.templates as any[]).find((t) => t.id === system.id);
    expect(bySys.systemPrompt).toBe("[Protected]");
    expect(res.body).toMatchObject({ total: res.body.templates.length, limit: 200, offset: 0 });

    expect(ids(await owner.client.get("/api/admin/templates?templateType=marketplace"))).toEqual([market.id]);
    expect(ids(await owner.client.get("/api/admin/templates?isFeatured=true"))).toEqual([system.id]);
    const inactive = await owner.client.get("/api/admin/templates?isActive=false");
    expect((inactive.body.templates as any[]).every((t) => t.isActive === false)).toBe(true);
    expect(ids(await owner.client.get("/api/admin/templates?visibility=public")).sort()).toEqual([system.id, market.id].sort());
    expect(ids(await owner.client.get("/api/admin/templates?search=Org%20Template"))).toEqual([orgTpl.id]);
    expect((await owner.client.get("/api/admin/templates?pricingTier=enterprise")).body.total).toBe(0);

    const byName = await owner.client.get("/api/admin/templates?sortBy=name&limit=200");
    const names = (byName.body.templates as any[]).map((t) => t.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const page = await owner.client.get("/api/admin/templates?sortBy=name&limit=2&offset=1");
    expect(ids(page)).toEqual(ids(byName).slice(1, 3));
    expect(page.body.total).toBe(byName.body.total);
    expectError(await owner.client.get("/api/admin/templates?sortBy=bogus"), 400, "VALIDATION_ERROR");
  });

  it("is for owners/admins; superadmins see every organization's templates and real prompts", async () => {
    expectError(await member.client.get("/api/admin/templates"), 403, "FORBIDDEN");
    expectError(await viewer.client.get("/api/admin/templates"), 403, "FORBIDDEN");
    const all = await root.client.get("/api/admin/templates?limit=200");
    expect(ids(all)).toEqual(expect.arrayContaining([otherOrgTpl.id, orgTpl.id, personal.id]));
    expect((all.body.templates as any[]).find((t) => t.id === market.id).systemPrompt).toBe(SECRET);
  });
});

describe("PATCH and DELETE /api/admin/templates/{id}", () => {
  it("blocks non-superadmins from changing system and marketplace templates", async () => {
    for (const t of [system, market]) {
      expectError(await owner.client.patch(`/api/admin/templates/${t.id}`, { name: "Hacked" }), 403, "FORBIDDEN");
      expectError(await owner.client.delete(`/api/admin/templates/${t.id}`), 403, "FORBIDDEN");
      expectError(await member.client.patch(`/api/admin/templates/${t.id}`, { systemPrompt: "x" }), 403, "FORBIDDEN");
    }
    const ok = await root.client.patch(`/api/admin/templates/${system.id}`, { description: "Updated by root", isFeatured: true });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ description: "Updated by root", systemPrompt: SECRET });
    expect((await owner.client.get(`/api/templates/${system.id}`)).body).toMatchObject({ description: "Updated by root", systemPrompt: "[Protected]" });
  });

  it("applies the organization's roles and isolation", async () => {
    expectError(await member.client.patch(`/api/admin/templates/${orgTpl.id}`, { name: "x" }), 403, "FORBIDDEN");
    expectError(await member.client.delete(`/api/admin/templates/${orgTpl.id}`), 403, "FORBIDDEN");
    expectError(await other.client.patch(`/api/admin/templates/${orgTpl.id}`, { name: "x" }), 404, "NOT_FOUND");
    expectError(await other.client.delete(`/api/admin/templates/${orgTpl.id}`), 404, "NOT_FOUND");
    expectError(await owner.client.patch(`/api/admin/templates/${personal.id}`, { name: "x" }), 404, "NOT_FOUND");
    expectError(await owner.client.patch("/api/admin/templates/nope", { name: "x" }), 404, "NOT_FOUND");
    expectError(await owner.client.delete("/api/admin/templates/nope"), 404, "NOT_FOUND");
    const mine = await member.client.patch(`/api/admin/templates/${personal.id}`, { description: "Mine", tags: ["x"] });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ description: "Mine", tags: ["x"] });
    const adminEdit = await admin.client.patch(`/api/admin/templates/${orgTpl.id}`, { category: "Research" });
    expect(adminEdit.body.category).toBe("research");
    expectError(await owner.client.patch(`/api/admin/templates/${orgTpl.id}`, { templateType: "personal" }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.patch(`/api/admin/templates/${orgTpl.id}`, { isFeatured: true }), 403, "FORBIDDEN");
    expectError(await owner.client.patch(`/api/admin/templates/${orgTpl.id}`, { name: "" }), 400, "VALIDATION_ERROR");
  });

  it("deletes a template; projects made from it keep working with template null", async () => {
    const t = await create(owner.client, { name: "Doomed" });
    const project = await member.client.post("/api/projects", { name: "Uses doomed", templateId: t.id });
    expect(project.status, project.text).toBe(201);
    expect(project.body.template).toMatchObject({ id: t.id, name: "Doomed" });
    expect((await owner.client.get(`/api/templates/${t.id}`)).body.usageCount).toBe(1);
    const del = await owner.client.delete(`/api/admin/templates/${t.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expectError(await owner.client.get(`/api/templates/${t.id}`), 404, "NOT_FOUND");
    const got = await member.client.get(`/api/projects/${project.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body.template).toBeNull();
    const versions = await db.selectFrom("templateVersions").select("id").where("templateId", "=", t.id).execute();
    expect(versions).toEqual([]);

    const gone = await create(root.client, { name: "Retired system", templateType: "system" });
    expect((await root.client.delete(`/api/admin/templates/${gone.id}`)).status).toBe(200);
    const own = await create(member.client, { name: "Short-lived" });
    expect((await member.client.delete(`/api/admin/templates/${own.id}`)).status).toBe(200);
  });

  it("answers 405 for methods a route does not support", async () => {
    const res = await owner.client.call("PUT", `/api/admin/templates/${orgTpl.id}`, { json: {} });
    expectError(res, 405, "METHOD_NOT_ALLOWED");
  });
});
