process.env.SUPERADMIN_EMAILS = "root@example.com";

import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/db.server";
import { AppError } from "~/domain/errors";
import { type ApiResult, signedUpClient, TestClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan, signedUpSuperadmin } from "../support/org";

/**
 * The public marketplace, template submissions and their review, project
 * quick-start and from-marketplace.
 */

// Lets a test make the next createProject fail after from-marketplace has copied the template.
const failNextProject = vi.hoisted(() => ({ on: false }));
vi.mock("~/domain/projects/projects.server", async (importOriginal) => {
  const original = await importOriginal<typeof import("~/domain/projects/projects.server")>();
  return {
    ...original,
    createProject: (...args: Parameters<typeof original.createProject>) => {
      if (failNextProject.on) {
        failNextProject.on = false;
        // A failure createProject really has (the plan's projects limit), so the answer stays in the contract.
        throw new AppError("LIMIT_REACHED", 403, "Simulated: the projects limit was reached", { extra: { metric: "projects", limit: 10, current: 10 } });
      }
      return original.createProject(...args);
    },
  };
});

const SECRET = "SECRET marketplace prompt";
const CAT = "mktcat";

async function create(client: TestClient, fields: Record<string, unknown> = {}) {
  const res = await client.post("/api/admin/templates", { name: "Tpl", description: "A template", category: CAT, ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

let ip = 0;
const anonymous = () => new TestClient(`10.88.0.${++ip}`);
const ids = (res: ApiResult) => (res.body.templates as { id: string }[]).map((t) => t.id);
const usage = async (id: string) => (await db.selectFrom("templates").select("usageCount").where("id", "=", id).executeTakeFirstOrThrow()).usageCount;
async function events(name: string) {
  const rows = await db.selectFrom("events").selectAll().where("name", "=", name).orderBy("createdAt").execute();
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, any> }));
}

let root: Account;
let owner: Account;
let member: Account;
let viewer: Account;
let other: Account;
let alpha: any; // system, featured, premium, used 5 times
let beta: any; // marketplace, used 9 times
let gamma: any; // system, newest, unused
let inactive: any;
let orgTpl: any;

beforeAll(async () => {
  root = await signedUpSuperadmin({ email: "root@example.com", name: "Root" });
  owner = await signedUpClient({ name: "Olive Owner" });
  other = await signedUpClient({ name: "Otto Other" });
  for (const a of [root, owner, other]) await setPlan(a.organization.id, "pro");
  member = await joinOrg(owner.organization.id, "member", "Mia Member");
  viewer = await joinOrg(owner.organization.id, "viewer", "Vic Viewer");
  alpha = await create(root.client, {
    name: "Alpha launch",
    templateType: "system",
    systemPrompt: SECRET,
    isFeatured: true,
    pricingTier: "premium",
    initialQuestion: "Which launch are we planning?",
    tags: ["launch"],
  });
  beta = await create(root.client, { name: "beta discovery", templateType: "marketplace", systemPrompt: SECRET, sections: ["Goals"] });
  gamma = await create(root.client, { name: "Gamma ops", templateType: "system", systemPrompt: SECRET, description: "Runbooks and incidents" });
  inactive = await create(root.client, { name: "Zeta hidden", templateType: "system", isActive: false });
  orgTpl = await create(owner.client, { name: "Owner org template", systemPrompt: "org prompt" });
  await db.updateTable("templates").set({ usageCount: 5, createdAt: "2024-01-01T00:00:00.000Z" }).where("id", "=", alpha.id).execute();
  await db.updateTable("templates").set({ usageCount: 9, createdAt: "2024-02-01T00:00:00.000Z" }).where("id", "=", beta.id).execute();
  await db.updateTable("templates").set({ createdAt: "2024-03-01T00:00:00.000Z" }).where("id", "=", gamma.id).execute();
});

describe("GET /api/marketplace-templates (public)", () => {
  it("lists active public templates without credentials, prompts [Protected]", async () => {
    const res = await anonymous().get(`/api/marketplace-templates?category=${CAT}`);
    expect(res.status, res.text).toBe(200);
    expect(ids(res)).toEqual([beta.id, alpha.id, gamma.id]);
    expect(res.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(ids(res)).not.toContain(inactive.id);
    expect(ids(res)).not.toContain(orgTpl.id);
    expect((res.body.templates as any[]).every((t) => t.systemPrompt === "[Protected]")).toBe(true);
    expect(res.body.templates[0]).toMatchObject({ templateType: "marketplace", visibility: "public", usageCount: 9, sections: ["Goals"] });
  });

  it("shows real prompts only to superadmins (session or API key), [Protected] to other signed-in users", async () => {
    const asOwner = await owner.client.get(`/api/marketplace-templates?category=${CAT}`);
    expect((asOwner.body.templates as any[]).map((t) => t.systemPrompt)).toEqual(["[Protected]", "[Protected]", "[Protected]"]);
    const asRoot = await root.client.get(`/api/marketplace-templates?category=${CAT}`);
    expect((asRoot.body.templates as any[]).map((t) => t.systemPrompt)).toEqual([SECRET, SECRET, SECRET]);
    const key = await root.client.post("/api/admin/rest-api-keys", { name: "root key" });
    expect(key.status, key.text).toBe(201);
    const viaKey = await anonymous().get(`/api/marketplace-templates/${beta.id}`, { key: key.body.apiKey.key });
    expect(viaKey.body.systemPrompt).toBe(SECRET);
    expectError(await anonymous().get("/api/marketplace-templates", { key: "svc_bogus" }), 401, "UNAUTHORIZED");
  });

  it("filters by category, search, featured and pricingTier", async () => {
    const c = anonymous();
    expect(ids(await c.get(`/api/marketplace-templates?category=${CAT}&featured=true`))).toEqual([alpha.id]);
    expect(ids(await c.get(`/api/marketplace-templates?category=${CAT}&featured=false`))).toEqual([beta.id, gamma.id]);
    expect(ids(await c.get(`/api/marketplace-templates?category=${CAT}&pricingTier=premium`))).toEqual([alpha.id]);
    expect(ids(await c.get(`/api/marketplace-templates?category=${CAT}&pricingTier=free`))).toEqual([beta.id, gamma.id]);
    expect(ids(await c.get("/api/marketplace-templates?search=incidents"))).toEqual([gamma.id]);
    expect(ids(await c.get("/api/marketplace-templates?search=LAUNCH"))).toEqual([alpha.id]);
    expect(ids(await c.get("/api/marketplace-templates?search=Owner%20org"))).toEqual([]);
    expect((await c.get("/api/marketplace-templates?category=nothing-here")).body).toMatchObject({ templates: [], total: 0 });
  });

  it("sorts popular, newest and name, and pages", async () => {
    const c = anonymous();
    expect(ids(await c.get(`/api/marketplace-templates?category=${CAT}&sort=popular`))).toEqual([beta.id, alpha.id, gamma.id]);
    expect(ids(await c.get(`/api/marketplace-templates?category=${CAT}&sort=newest`))).toEqual([gamma.id, beta.id, alpha.id]);
    expect(ids(await c.get(`/api/marketplace-templates?category=${CAT}&sort=name`))).toEqual([alpha.id, beta.id, gamma.id]);
    const page = await c.get(`/api/marketplace-templates?category=${CAT}&sort=name&limit=1&offset=1`);
    expect(ids(page)).toEqual([beta.id]);
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expectError(await c.get("/api/marketplace-templates?sort=random"), 400, "VALIDATION_ERROR");
    expectError(await c.get("/api/marketplace-templates?limit=0"), 400, "VALIDATION_ERROR");
  });

  it("GET /{templateId}: public active templates only", async () => {
    const c = anonymous();
    const got = await c.get(`/api/marketplace-templates/${alpha.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: alpha.id, name: "Alpha launch", systemPrompt: "[Protected]", isFeatured: true });
    expect((await owner.client.get(`/api/marketplace-templates/${alpha.id}`)).body.systemPrompt).toBe("[Protected]");
    expect((await root.client.get(`/api/marketplace-templates/${alpha.id}`)).body.systemPrompt).toBe(SECRET);
    expectError(await c.get(`/api/marketplace-templates/${orgTpl.id}`), 404, "NOT_FOUND");
    expectError(await owner.client.get(`/api/marketplace-templates/${orgTpl.id}`), 404, "NOT_FOUND");
    expectError(await c.get(`/api/marketplace-templates/${inactive.id}`), 404, "NOT_FOUND");
    expectError(await c.get("/api/marketplace-templates/unknown"), 404, "NOT_FOUND");
  });
});

describe("template submissions and review", () => {
  it("runs submit → list → review (approve) → marketplace, with events", async () => {
    const mine = await create(member.client, {
      name: "Mia's interview kit",
      systemPrompt: "mia secret",
      initialQuestion: "Who did you interview?",
      sections: ["Findings"],
      tags: ["research"],
      features: ["quotes"],
      category: "research",
    });
    const sub = await member.client.post("/api/template-submissions", { templateId: mine.id, notes: "Please publish" });
    expect(sub.status, sub.text).toBe(201);
    expect(sub.body.submission).toMatchObject({
      templateId: mine.id,
      templateName: "Mia's interview kit",
      notes: "Please publish",
      status: "pending",
      reason: null,
      reviewedAt: null,
      marketplaceTemplateId: null,
    });
    const id = sub.body.submission.id;
    expectError(await member.client.post("/api/template-submissions", { templateId: mine.id }), 409, "CONFLICT");

    const own = await member.client.get("/api/template-submissions");
    expect(own.body.submissions.map((s: any) => s.id)).toEqual([id]);
    expect((await owner.client.get("/api/template-submissions")).body.submissions).toEqual([]);

    const queue = await root.client.get("/api/admin/template-submissions?status=pending");
    expect(queue.status).toBe(200);
    const row = (queue.body.submissions as any[]).find((s) => s.id === id);
    expect(row.submitter).toEqual({ id: member.user.id, name: "Mia Member", email: member.email });
    expect(queue.body.total).toBe(queue.body.submissions.length);

    const approved = await root.client.post(`/api/admin/template-submissions/${id}/review`, { decision: "approve" });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.submission).toMatchObject({ id, status: "approved", reason: null });
    const publishedId = approved.body.submission.marketplaceTemplateId;
    expect(typeof approved.body.submission.reviewedAt).toBe("string");

    const published = await anonymous().get(`/api/marketplace-templates/${publishedId}`);
    expect(published.body).toMatchObject({
      templateType: "marketplace",
      visibility: "public",
      orgId: null,
      createdById: member.user.id,
      name: "Mia's interview kit",
      systemPrompt: "[Protected]",
      initialQuestion: "Who did you interview?",
      sections: ["Findings"],
      tags: ["research"],
      features: ["quotes"],
      category: "research",
      isActive: true,
      isFeatured: false,
      pricingTier: "free",
      usageCount: 0,
    });
    expect((await root.client.get(`/api/marketplace-templates/${publishedId}`)).body.systemPrompt).toBe("mia secret");
    const versions = await root.client.get(`/api/templates/${publishedId}/versions`);
    expect(versions.body.versions).toHaveLength(1);
    expectError(await member.client.patch(`/api/admin/templates/${publishedId}`, { name: "mine now" }), 403, "FORBIDDEN");

    const mineNow = await member.client.get("/api/template-submissions");
    expect(mineNow.body.submissions[0]).toMatchObject({ id, status: "approved", marketplaceTemplateId: publishedId });
    expectError(await root.client.post(`/api/admin/template-submissions/${id}/review`, { decision: "reject", reason: "late" }), 409, "CONFLICT");

    const submitted = (await events("template.submitted")).find((e) => e.data.submissionId === id);
    expect(submitted).toMatchObject({ orgId: owner.organization.id, actorId: member.user.id, data: { templateId: mine.id } });
    const reviewed = (await events("template.reviewed")).find((e) => e.data.submissionId === id);
    expect(reviewed).toMatchObject({ actorId: root.user.id, data: { templateId: mine.id, decision: "approve", marketplaceTemplateId: publishedId } });
  });

  it("rejects with a reason, which the submitter sees, and allows resubmitting", async () => {
    const t = await create(owner.client, { name: "Org playbook" });
    const sub = await owner.client.post("/api/template-submissions", { templateId: t.id });
    expect(sub.status).toBe(201);
    const id = sub.body.submission.id;
    const url = `/api/admin/template-submissions/${id}/review`;
    const noReason = await root.client.post(url, { decision: "reject" });
    expectError(noReason, 400, "VALIDATION_ERROR");
    expect(noReason.body.details[0].path).toBe("reason");
    expectError(await root.client.post(url, { decision: "maybe" }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post(url, { decision: "approve" }), 403, "FORBIDDEN");
    const rejected = await root.client.post(url, { decision: "reject", reason: "Too specific to one company" });
    expect(rejected.body.submission).toMatchObject({ status: "rejected", reason: "Too specific to one company", marketplaceTemplateId: null });
    const mine = await owner.client.get("/api/template-submissions");
    expect(mine.body.submissions[0]).toMatchObject({ id, status: "rejected", reason: "Too specific to one company" });
    expect((await events("template.reviewed")).find((e) => e.data.submissionId === id)?.data).toMatchObject({
      decision: "reject",
      marketplaceTemplateId: null,
    });
    expectError(await root.client.post(url, { decision: "approve" }), 409, "CONFLICT");
    expect((await owner.client.post("/api/template-submissions", { templateId: t.id })).status).toBe(201);
    expectError(await root.client.post("/api/admin/template-submissions/unknown/review", { decision: "approve" }), 404, "NOT_FOUND");

    const rejectedList = await root.client.get("/api/admin/template-submissions?status=rejected");
    expect((rejectedList.body.submissions as any[]).every((s) => s.status === "rejected")).toBe(true);
    expect(rejectedList.body.submissions.map((s: any) => s.id)).toContain(id);
  });

  it("refuses templates the caller may not submit", async () => {
    const post = (c: TestClient, body: unknown) => c.post("/api/template-submissions", body);
    expectError(await post(member.client, { templateId: orgTpl.id }), 403, "FORBIDDEN");
    expectError(await post(owner.client, { templateId: alpha.id }), 403, "FORBIDDEN");
    const miaOnly = await create(member.client, { name: "Private to Mia" });
    expectError(await post(owner.client, { templateId: miaOnly.id }), 404, "NOT_FOUND");
    expectError(await post(other.client, { templateId: orgTpl.id }), 404, "NOT_FOUND");
    expectError(await post(owner.client, { templateId: "unknown" }), 404, "NOT_FOUND");
    expectError(await post(owner.client, {}), 400, "VALIDATION_ERROR");
    expectError(await post(anonymous(), { templateId: orgTpl.id }), 401, "UNAUTHORIZED");
    expectError(await anonymous().get("/api/template-submissions"), 401, "UNAUTHORIZED");
  });

  it("keeps the review queue to superadmins and refuses to publish a deleted template", async () => {
    expectError(await owner.client.get("/api/admin/template-submissions"), 403, "FORBIDDEN");
    expectError(await root.client.get("/api/admin/template-submissions?status=bogus"), 400, "VALIDATION_ERROR");
    const t = await create(owner.client, { name: "Short-lived" });
    const sub = await owner.client.post("/api/template-submissions", { templateId: t.id });
    expect((await owner.client.delete(`/api/admin/templates/${t.id}`)).status).toBe(200);
    const mine = (await owner.client.get("/api/template-submissions")).body.submissions.find((s: any) => s.id === sub.body.submission.id);
    expect(mine).toMatchObject({ templateId: null, templateName: "Short-lived", status: "pending" });
    const url = `/api/admin/template-submissions/${sub.body.submission.id}/review`;
    expectError(await root.client.post(url, { decision: "approve" }), 409, "CONFLICT");
    expect((await root.client.post(url, { decision: "reject", reason: "Deleted" })).status).toBe(200);
  });
});

describe("POST /api/projects/quick-start", () => {
  it("creates a project with a default first question when there is no template", async () => {
    const res = await member.client.post("/api/projects/quick-start", { name: "Quick idea", useCase: "Reduce churn for SMBs" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.project).toMatchObject({ name: "Quick idea", description: "Reduce churn for SMBs", status: "DRAFT", templateId: null, template: null });
    expect(res.body.initialQuestion).toBe("What problem are you trying to solve, and for whom?");
    expect((await member.client.get(`/api/projects/${res.body.project.id}`)).status).toBe(200);
  });

  it("uses the template's first question and counts the use", async () => {
    const before = await usage(alpha.id);
    const res = await owner.client.post("/api/projects/quick-start", { name: "Launch", templateId: alpha.id });
    expect(res.status, res.text).toBe(201);
    expect(res.body.initialQuestion).toBe("Which launch are we planning?");
    expect(res.body.project.template).toMatchObject({ id: alpha.id, name: "Alpha launch" });
    expect(await usage(alpha.id)).toBe(before + 1);
    const noQuestion = await owner.client.post("/api/projects/quick-start", { name: "Org", templateId: orgTpl.id });
    expect(noQuestion.body.initialQuestion).toBe("What problem are you trying to solve, and for whom?");
  });

  it("refuses templates the caller may not use, missing names and viewers", async () => {
    const foreign = await create(other.client, { name: "Other org only" });
    expectError(await owner.client.post("/api/projects/quick-start", { name: "x", templateId: foreign.id }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post("/api/projects/quick-start", { name: "x", templateId: "nope" }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post("/api/projects/quick-start", { useCase: "no name" }), 400, "VALIDATION_ERROR");
    expectError(await viewer.client.post("/api/projects/quick-start", { name: "x" }), 403, "FORBIDDEN");
    expectError(await anonymous().post("/api/projects/quick-start", { name: "x" }), 401, "UNAUTHORIZED");
  });
});

describe("POST /api/projects/from-marketplace", () => {
  it("copies into the organization for owners, counts the use, starts a project", async () => {
    const before = await usage(beta.id);
    const res = await owner.client.post("/api/projects/from-marketplace", { templateId: beta.id });
    expect(res.status, res.text).toBe(201);
    const { project, template } = res.body;
    expect(template).toMatchObject({
      templateType: "organization",
      visibility: "organization",
      orgId: owner.organization.id,
      createdById: owner.user.id,
      name: "beta discovery",
      sections: ["Goals"],
      systemPrompt: "[Protected]",
      isFeatured: false,
      usageCount: 1,
    });
    expect(template.id).not.toBe(beta.id);
    expect(project).toMatchObject({ name: "beta discovery", templateId: template.id, template: { id: template.id } });
    expect(await usage(beta.id)).toBe(before + 1);
    const copy = await owner.client.get(`/api/templates/${template.id}`);
    expect(copy.body.systemPrompt).toBe("[Protected]");
    expect((await member.client.get(`/api/templates/${template.id}`)).status).toBe(200);
    const popular = await anonymous().get(`/api/marketplace-templates/${beta.id}`);
    expect(popular.body.usageCount).toBe(before + 1);
  });

  it("copies as a personal template for members; superadmins keep the real prompt", async () => {
    const res = await member.client.post("/api/projects/from-marketplace", { templateId: alpha.id, name: "My launch" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.template).toMatchObject({ templateType: "personal", visibility: "personal", createdById: member.user.id, systemPrompt: "[Protected]" });
    expect(res.body.project.name).toBe("My launch");
    expectError(await owner.client.get(`/api/templates/${res.body.template.id}`), 404, "NOT_FOUND");
    const asRoot = await root.client.post("/api/projects/from-marketplace", { templateId: alpha.id });
    expect(asRoot.status).toBe(201);
    expect(asRoot.body.template).toMatchObject({ templateType: "organization", systemPrompt: SECRET });
  });

  it("keeps the real prompt in the copy for the AI, hidden from its owners in every response and version", async () => {
    const res = await owner.client.post("/api/projects/from-marketplace", { templateId: alpha.id });
    expect(res.status, res.text).toBe(201);
    const copyId = res.body.template.id as string;
    const stored = await db.selectFrom("templates").select(["systemPrompt", "promptProtected"]).where("id", "=", copyId).executeTakeFirstOrThrow();
    expect(stored).toEqual({ systemPrompt: SECRET, promptProtected: 1 });
    // Editing other fields, or sending "[Protected]" back, keeps it.
    const edited = await owner.client.patch(`/api/admin/templates/${copyId}`, { name: "Our launch", systemPrompt: "[Protected]" });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.systemPrompt).toBe("[Protected]");
    const versions = await owner.client.get(`/api/templates/${copyId}/versions`);
    expect(versions.status).toBe(200);
    expect(versions.body.versions.length).toBeGreaterThanOrEqual(2);
    for (const v of versions.body.versions) expect(v.snapshot.systemPrompt).toBe("[Protected]");
    expect(JSON.stringify(versions.body)).not.toContain(SECRET);
    const listed = await owner.client.get(`/api/admin/templates?search=Our%20launch`);
    expect(JSON.stringify(listed.body)).not.toContain(SECRET);
    // Writing their own prompt makes it theirs; restoring the copy's first version hides it again.
    const own = await owner.client.patch(`/api/admin/templates/${copyId}`, { systemPrompt: "Our own prompt" });
    expect(own.body.systemPrompt).toBe("Our own prompt");
    const first = (await owner.client.get(`/api/templates/${copyId}/versions`)).body.versions.at(-1);
    const restored = await owner.client.post(`/api/templates/${copyId}/restore`, { versionId: first.id });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.systemPrompt).toBe("[Protected]");
    const after = await db.selectFrom("templates").select(["systemPrompt", "promptProtected"]).where("id", "=", copyId).executeTakeFirstOrThrow();
    expect(after).toEqual({ systemPrompt: SECRET, promptProtected: 1 });
  });

  it("404s for templates that are not public and active; validates; refuses viewers", async () => {
    const url = "/api/projects/from-marketplace";
    expectError(await owner.client.post(url, { templateId: orgTpl.id }), 404, "NOT_FOUND");
    expectError(await owner.client.post(url, { templateId: inactive.id }), 404, "NOT_FOUND");
    expectError(await owner.client.post(url, { templateId: "unknown" }), 404, "NOT_FOUND");
    expectError(await owner.client.post(url, {}), 400, "VALIDATION_ERROR");
    expectError(await viewer.client.post(url, { templateId: beta.id }), 403, "FORBIDDEN");
    expectError(await anonymous().post(url, { templateId: beta.id }), 401, "UNAUTHORIZED");
  });

  it("respects the templates and projects limits and leaves no orphan copy", async () => {
    const free = await signedUpClient({ name: "Fay Free" });
    for (let i = 1; i <= 3; i++) await create(free.client, { name: `Free ${i}` });
    const before = await usage(beta.id);
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("templates")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("orgId", "=", free.organization.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const over = await free.client.post("/api/projects/from-marketplace", { templateId: beta.id });
    expectError(over, 403, "LIMIT_REACHED");
    expect(over.body).toMatchObject({ metric: "templates", limit: 3 });
    expect(await count()).toBe(3);
    expect(await usage(beta.id)).toBe(before);

    const full = await signedUpClient({ name: "Pat Projects" });
    for (let i = 1; i <= 10; i++) expect((await full.client.post("/api/projects", { name: `P${i}` })).status).toBe(201);
    const noRoom = await full.client.post("/api/projects/from-marketplace", { templateId: beta.id });
    expectError(noRoom, 403, "LIMIT_REACHED");
    expect(noRoom.body.metric).toBe("projects");
    const copies = await db.selectFrom("templates").select("id").where("orgId", "=", full.organization.id).execute();
    expect(copies).toEqual([]);
    expect(await usage(beta.id)).toBe(before);
  });

  it("undoes the copy and the usage count when the project cannot be created", async () => {
    const before = await usage(gamma.id);
    const templatesBefore = await db.selectFrom("templates").select("id").where("orgId", "=", owner.organization.id).execute();
    failNextProject.on = true;
    expectError(await owner.client.post("/api/projects/from-marketplace", { templateId: gamma.id }), 403, "LIMIT_REACHED");
    const templatesAfter = await db.selectFrom("templates").select("id").where("orgId", "=", owner.organization.id).execute();
    expect(templatesAfter.map((t) => t.id).sort()).toEqual(templatesBefore.map((t) => t.id).sort());
    expect(await usage(gamma.id)).toBe(before);
    expect((await owner.client.post("/api/projects/from-marketplace", { templateId: gamma.id })).status).toBe(201);
    expect(await usage(gamma.id)).toBe(before + 1);
  });
});
