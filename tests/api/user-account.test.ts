import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { GOOD_PASSWORD, TestClient, signedUpClient, type ApiResult } from "../support/client";

function expectError(res: ApiResult, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ code });
  expect(typeof res.body.error).toBe("string");
}

const onboarding = (extra: Record<string, unknown> = {}) => ({
  fullName: "Ada Lovelace",
  jobTitle: "Product lead",
  company: "Analytical Engines",
  useCase: "Write PRDs for new features",
  teamSize: "2-10",
  prdStyle: "lean",
  interests: ["ai", "templates"],
  ...extra,
});

/** A second user who joins `orgId` as a member (straight in the database, as invitation acceptance is another area). */
async function memberOf(orgId: string, role: "member" | "owner" | "admin" = "member") {
  const other = await signedUpClient({ name: "Bob Member" });
  await db.insertInto("memberships").values({ id: crypto.randomUUID(), orgId, userId: other.user.id, role, createdAt: new Date().toISOString() }).execute();
  await db.updateTable("sessions").set({ orgId }).where("userId", "=", other.user.id).execute();
  return other;
}

describe("profile and timezone", () => {
  it("GET returns the profile with e-mail, timezone and preferences; PATCH updates and validates", async () => {
    const { client, email } = await signedUpClient({ name: "Pat Profile" });
    const first = await client.get("/api/user/profile");
    expect(first.status, first.text).toBe(200);
    expect(first.body.profile).toMatchObject({ name: "Pat Profile", email, timezone: "UTC", jobTitle: null, bio: null, avatar: null });
    expect(first.body.preferences).toEqual({});

    const patch = await client.patch("/api/user/profile", {
      name: "Pat P.",
      jobTitle: "PM",
      bio: "Writes specs",
      avatar: "https://example.com/a.png",
      preferredStyle: "Technical",
    });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body.profile).toMatchObject({
      name: "Pat P.",
      jobTitle: "PM",
      bio: "Writes specs",
      avatar: "https://example.com/a.png",
      preferredStyle: "technical",
    });
    expect((await client.get("/api/auth/me")).body.user.name).toBe("Pat P.");

    const cleared = await client.patch("/api/user/profile", { bio: "", avatar: null });
    expect(cleared.body.profile).toMatchObject({ bio: null, avatar: null, jobTitle: "PM" });

    for (const bad of [
      { name: "" },
      { name: "x".repeat(101) },
      { jobTitle: "x".repeat(101) },
      { bio: "x".repeat(1001) },
      { avatar: "javascript:alert(1)" },
      { avatar: "ftp://example.com/a.png" },
      { preferredStyle: "poetic" },
      {},
    ]) {
      const res = await client.patch("/api/user/profile", bad);
      expectError(res, 400, "VALIDATION_ERROR");
      expect(res.body.details.length, JSON.stringify(bad)).toBeGreaterThan(0);
    }
    expect((await client.get("/api/user/profile")).body.profile.name).toBe("Pat P.");
  });

  it("PATCH /api/user/timezone accepts IANA names only", async () => {
    const { client } = await signedUpClient();
    const ok = await client.patch("/api/user/timezone", { timezone: "Europe/Paris" });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ success: true, timezone: "Europe/Paris" });
    expect((await client.get("/api/user/profile")).body.profile.timezone).toBe("Europe/Paris");
    expectError(await client.patch("/api/user/timezone", { timezone: "Mars/Olympus" }), 400, "VALIDATION_ERROR");
    expectError(await client.patch("/api/user/timezone", {}), 400, "VALIDATION_ERROR");
    expect((await client.get("/api/user/profile")).body.profile.timezone).toBe("Europe/Paris");
  });

  it("requires authentication", async () => {
    const anonymous = new TestClient("10.77.0.1");
    for (const path of ["/api/user/profile", "/api/user/onboarding", "/api/user/onboarding-progress", "/api/user/data-export"]) {
      expectError(await anonymous.get(path), 401, "UNAUTHORIZED");
    }
  });
});

describe("onboarding", () => {
  it("starts incomplete, completes idempotently and keeps the first completedAt", async () => {
    const { client } = await signedUpClient();
    expect((await client.get("/api/user/onboarding")).body).toEqual({ completed: false, completedAt: null, preferences: {} });

    const done = await client.post("/api/user/onboarding", onboarding());
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ completed: true, organization: null, invitations: { recorded: [], sent: false } });
    expect(done.body.preferences).toEqual({
      company: "Analytical Engines",
      useCase: "Write PRDs for new features",
      teamSize: "2-10",
      prdStyle: "lean",
      interests: ["ai", "templates"],
    });
    const profile = (await client.get("/api/user/profile")).body;
    expect(profile.profile).toMatchObject({ name: "Ada Lovelace", jobTitle: "Product lead", preferredStyle: "lean" });
    expect(profile.preferences.company).toBe("Analytical Engines");

    const again = await client.post("/api/user/onboarding", onboarding({ company: "Difference Ltd" }));
    expect(again.body.completedAt).toBe(done.body.completedAt);
    expect((await client.get("/api/user/onboarding")).body.preferences.company).toBe("Difference Ltd");
  });

  it("validates required fields, orgName with createOrg, e-mails and at most 20 invitations", async () => {
    const { client } = await signedUpClient();
    const missing = await client.post("/api/user/onboarding", { fullName: "A" });
    expectError(missing, 400, "VALIDATION_ERROR");
    const paths = missing.body.details.map((d: { path: string }) => d.path);
    for (const field of ["jobTitle", "company", "useCase", "teamSize", "prdStyle", "interests"]) expect(paths).toContain(field);
    expectError(await client.post("/api/user/onboarding", onboarding({ createOrg: true })), 400, "VALIDATION_ERROR");
    expectError(await client.post("/api/user/onboarding", onboarding({ inviteEmails: ["not-an-email"] })), 400, "VALIDATION_ERROR");
    const many = Array.from({ length: 21 }, (_, i) => `p${i}@example.com`);
    expectError(await client.post("/api/user/onboarding", onboarding({ inviteEmails: many })), 400, "VALIDATION_ERROR");
    expect((await client.get("/api/user/onboarding")).body.completed).toBe(false);
  });

  it("creates an organization with the caller as owner, moves the session there and e-mails invitations once", async () => {
    const { client } = await signedUpClient();
    const res = await client.post(
      "/api/user/onboarding",
      onboarding({ createOrg: true, orgName: "Acme Team", inviteEmails: ["Kim@Example.com", "lee@example.com"] }),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.organization).toMatchObject({ name: "Acme Team", role: "owner" });
    expect(res.body.invitations).toEqual({ recorded: ["kim@example.com", "lee@example.com"], skipped: [], sent: true });
    const orgId = res.body.organization.id;
    expect((await client.get("/api/auth/me")).body.organization.id).toBe(orgId);
    const invitations = await db.selectFrom("invitations").select(["email", "role", "status"]).where("orgId", "=", orgId).orderBy("email").execute();
    expect(invitations).toEqual([
      { email: "kim@example.com", role: "member", status: "pending" },
      { email: "lee@example.com", role: "member", status: "pending" },
    ]);
    const mails = await db.selectFrom("emails").select(["toAddress", "text"]).where("kind", "=", "invitation").where("orgId", "=", orgId).execute();
    expect(mails.map((m) => m.toAddress).sort()).toEqual(["kim@example.com", "lee@example.com"]);
    expect(mails[0]!.text).toMatch(/\/sign-up\?invite=/);

    const again = await client.post("/api/user/onboarding", onboarding({ inviteEmails: ["kim@example.com"] }));
    expect(again.body.invitations).toEqual({ recorded: [], skipped: ["kim@example.com"], sent: false });
  });

  it("lets an invited member invite only after creating their own organization", async () => {
    const owner = await signedUpClient();
    const member = await memberOf(owner.organization.id);
    expectError(await member.client.post("/api/user/onboarding", onboarding({ inviteEmails: ["x@example.com"] })), 403, "FORBIDDEN");
  });
});

describe("onboarding progress", () => {
  it("is computed from real state, step by step", async () => {
    const { client } = await signedUpClient();
    const start = (await client.get("/api/user/onboarding-progress")).body;
    expect(start.total).toBe(5);
    expect(start.steps.map((s: { id: string }) => s.id)).toEqual(["profile", "project", "prd", "invite", "share"]);
    expect(start.completedCount).toBe(0);
    for (const s of start.steps) expect(s).toMatchObject({ completed: false, link: expect.stringMatching(/^\//) });

    await client.patch("/api/user/profile", { bio: "Hello" });
    const project = await client.post("/api/projects", { name: "Progress" });
    expect(project.status, project.text).toBe(201);
    let progress = (await client.get("/api/user/onboarding-progress")).body;
    expect(progress.completedCount).toBe(2);
    await client.post(`/api/projects/${project.body.id}/prd`, { content: "# Progress\n\n## Problem\nNone" });
    await client.post(`/api/projects/${project.body.id}/share`, {});
    await client.post("/api/user/onboarding", onboarding({ inviteEmails: ["mate@example.com"] }));
    progress = (await client.get("/api/user/onboarding-progress")).body;
    expect(progress.steps.every((s: { completed: boolean }) => s.completed)).toBe(true);
    expect(progress.completedCount).toBe(5);
  });
});

describe("activity", () => {
  it("records lastActiveAt at most once per 5 minutes", async () => {
    const { client, user } = await signedUpClient();
    const first = await client.post("/api/user/activity");
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ success: true, recorded: true });
    const second = await client.post("/api/user/activity");
    expect(second.body).toEqual({ success: true, recorded: false, lastActiveAt: first.body.lastActiveAt });

    const sixMinutesAgo = new Date(Date.now() - 6 * 60_000).toISOString();
    await db.updateTable("userProfiles").set({ lastActiveAt: sixMinutesAgo }).where("userId", "=", user.id).execute();
    const third = await client.post("/api/user/activity");
    expect(third.body.recorded).toBe(true);
    expect(third.body.lastActiveAt > sixMinutesAgo).toBe(true);
    expect((await client.get("/api/user/profile")).body.profile.lastActiveAt).toBe(third.body.lastActiveAt);
  });
});

describe("data export", () => {
  it("downloads the user's own data and nothing of a teammate", async () => {
    const owner = await signedUpClient({ name: "Owner One" });
    const mate = await memberOf(owner.organization.id);
    const project = await owner.client.post("/api/projects", { name: "Owner project" });
    const pid = project.body.id;
    await owner.client.post(`/api/projects/${pid}/prd`, { content: "# Owner PRD\n\n## Problem\nOwner text" });
    await owner.client.post(`/api/projects/${pid}/comments`, { content: "owner comment" });
    const mateComment = await mate.client.post(`/api/projects/${pid}/comments`, { content: "mate comment secret" });
    expect(mateComment.status, mateComment.text).toBe(201);
    const mateMemory = await mate.client.post("/api/memory", { memoryType: "preference", category: "style", content: "mate memory secret" });
    expect(mateMemory.status, mateMemory.text).toBe(201);
    await owner.client.post("/api/memory", { memoryType: "preference", category: "style", content: "owner memory" });
    const key = await owner.client.post("/api/user/api-keys", { provider: "provider_a", key: "sk-test-1234567890abcdef" });
    expect(key.status, key.text).toBe(201);
    expect(mate.email).not.toBe(owner.email);

    const res = await owner.client.get("/api/user/data-export");
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="prd-studio-data-\d{4}-\d\d-\d\d\.json"/);
    expect(res.headers.get("Content-Type")).toMatch(/application\/json/);
    const data = res.body;
    expect(data.profile.email).toBe(owner.email);
    expect(data.memberships).toHaveLength(1);
    expect(data.projects.map((p: { name: string }) => p.name)).toEqual(["Owner project"]);
    expect(data.projects[0].prd.content).toContain("Owner text");
    expect(data.projects[0].versions.length).toBeGreaterThan(0);
    expect(data.comments.map((c: { content: string }) => c.content)).toEqual(["owner comment"]);
    expect(data.memories.map((m: { content: string }) => m.content)).toEqual(["owner memory"]);
    expect(data.aiProviderKeys).toHaveLength(1);
    expect(data.aiProviderKeys[0].maskedKey).not.toContain("1234567890");
    expect(res.text).not.toContain("sk-test-1234567890abcdef");
    expect(res.text).not.toContain("secret");
    expect(res.text).not.toContain(mate.email);
    expect(res.text).not.toMatch(/keyHash|keyEncrypted|passwordHash/);

    const mateExport = await mate.client.get("/api/user/data-export");
    expect(mateExport.body.comments.map((c: { content: string }) => c.content)).toEqual(["mate comment secret"]);
    expect(mateExport.body.projects).toEqual([]);
  });
});

describe("account deletion", () => {
  it("refuses a wrong confirmation e-mail with 400", async () => {
    const { client } = await signedUpClient();
    expectError(await client.delete("/api/user/delete-account", { json: { confirmEmail: "other@example.com" } }), 400, "VALIDATION_ERROR");
    expectError(await client.delete("/api/user/delete-account", { json: {} }), 400, "VALIDATION_ERROR");
    expect((await client.get("/api/auth/me")).status).toBe(200);
  });

  it("refuses the only owner of an organization with members, naming it (409)", async () => {
    const owner = await signedUpClient({ name: "Solo Owner" });
    await memberOf(owner.organization.id);
    const res = await owner.client.delete("/api/user/delete-account", { json: { confirmEmail: owner.email } });
    expectError(res, 409, "OWNERSHIP_TRANSFER_REQUIRED");
    expect(res.body.organizations).toEqual([{ id: owner.organization.id, name: owner.organization.name }]);
    expect(res.body.error).toContain(owner.organization.name);
    expect((await owner.client.get("/api/auth/me")).status).toBe(200);
  });

  it("deletes a member: their personal data goes, the organization and its projects stay, audited; sign-in fails", async () => {
    const owner = await signedUpClient();
    const mate = await memberOf(owner.organization.id);
    const project = await mate.client.post("/api/projects", { name: "Mate project" });
    expect(project.status, project.text).toBe(201);
    await mate.client.post("/api/memory", { memoryType: "preference", category: "style", content: "to be deleted" });
    await mate.client.patch("/api/user/profile", { bio: "bye" });
    const mateOwnOrg = mate.organization.id;

    const res = await mate.client.delete("/api/user/delete-account", { json: { confirmEmail: mate.email.toUpperCase() } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ success: true, deletedOrganizations: [{ id: mateOwnOrg }], leftOrganizations: [{ id: owner.organization.id }] });

    expect(await db.selectFrom("users").select("id").where("id", "=", mate.user.id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("organizations").select("id").where("id", "=", mateOwnOrg).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("memories").select("id").where("userId", "=", mate.user.id).execute()).toEqual([]);
    expect(await db.selectFrom("userProfiles").select("userId").where("userId", "=", mate.user.id).execute()).toEqual([]);
    expect(await db.selectFrom("sessions").select("id").where("userId", "=", mate.user.id).execute()).toEqual([]);
    const kept = await db.selectFrom("projects").select(["orgId", "createdById"]).where("id", "=", project.body.id).executeTakeFirst();
    expect(kept).toEqual({ orgId: owner.organization.id, createdById: null });
    const audit = await db
      .selectFrom("auditLogs")
      .select(["action", "actorEmail"])
      .where("orgId", "=", owner.organization.id)
      .where("action", "=", "user.account_deleted")
      .execute();
    expect(audit).toEqual([{ action: "user.account_deleted", actorEmail: mate.email }]);

    expectError(await mate.client.get("/api/auth/me"), 401, "UNAUTHORIZED");
    const signIn = await new TestClient("10.77.1.1").post("/api/auth/sign-in", { email: mate.email, password: GOOD_PASSWORD });
    expectError(signIn, 401, "INVALID_CREDENTIALS");
  });

  it("deletes a sole user's organization with its projects", async () => {
    const { client, email, organization } = await signedUpClient();
    const project = await client.post("/api/projects", { name: "Doomed" });
    const res = await client.delete("/api/user/delete-account", { json: { confirmEmail: email } });
    expect(res.status, res.text).toBe(200);
    expect(await db.selectFrom("organizations").select("id").where("id", "=", organization.id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("projects").select("id").where("id", "=", project.body.id).executeTakeFirst()).toBeUndefined();
  });
});
