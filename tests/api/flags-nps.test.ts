process.env.SUPERADMIN_EMAILS = "flags-root@example.com";
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { evaluateFlag, rolloutBucket } from "~/domain/flags/evaluate";
import { EMPTY_RULES } from "~/domain/flags/flags.schema";
import { isFeatureEnabled } from "~/domain/flags/flags.server";
import { signedUpClient } from "../support/client";
import { expectError, setPlan, signedUpSuperadmin } from "../support/org";
import { pageText } from "../support/page";

const FLAGS = "/api/feature-flags";
const root = () => signedUpSuperadmin({ email: `flags-root@example.com` });
let rootAccount: Awaited<ReturnType<typeof root>> | null = null;
const superadmin = async () => (rootAccount ??= await root());

describe("flag evaluation", () => {
  const base = { key: "beta", enabled: false, rolloutPercentage: null, rules: EMPTY_RULES };
  const subject = { userId: "u1", orgId: "o1", plan: "pro" };
  it("follows user → org → plan → percentage → default", () => {
    expect(evaluateFlag(base, subject)).toBe(false);
    expect(evaluateFlag({ ...base, enabled: true }, subject)).toBe(true);
    expect(evaluateFlag({ ...base, rules: { ...EMPTY_RULES, allowUserIds: ["u1"], denyOrgIds: ["o1"] } }, subject)).toBe(true);
    expect(evaluateFlag({ ...base, enabled: true, rules: { ...EMPTY_RULES, denyUserIds: ["u1"], allowOrgIds: ["o1"] } }, subject)).toBe(false);
    expect(evaluateFlag({ ...base, rules: { ...EMPTY_RULES, allowOrgIds: ["o1"] } }, subject)).toBe(true);
    expect(evaluateFlag({ ...base, enabled: true, rules: { ...EMPTY_RULES, plans: ["enterprise"] } }, subject)).toBe(false);
    expect(evaluateFlag({ ...base, enabled: true, rules: { ...EMPTY_RULES, plans: ["pro"] } }, subject)).toBe(true);
    expect(evaluateFlag({ ...base, rolloutPercentage: 100 }, subject)).toBe(true);
    expect(evaluateFlag({ ...base, enabled: true, rolloutPercentage: 0 }, subject)).toBe(false);
  });
  it("buckets organizations stably, roughly by percentage", () => {
    expect(rolloutBucket("beta", "o1")).toBe(rolloutBucket("beta", "o1"));
    const on = Array.from({ length: 1000 }, (_, i) => evaluateFlag({ ...base, rolloutPercentage: 30 }, { ...subject, orgId: `org${i}` })).filter(
      Boolean,
    ).length;
    expect(on).toBeGreaterThan(230);
    expect(on).toBeLessThan(370);
  });
});

describe("/api/feature-flags", () => {
  it("built-in defaults: exports on, transcription off, unknown keys off", async () => {
    const { client } = await signedUpClient();
    const res = await client.get(`${FLAGS}/enabled`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.flags).toMatchObject({
      export_pdf: true,
      export_html: true,
      export_docx: true,
      export_notes: true,
      export_wiki: true,
      export_docs: true,
      transcription: false,
    });
    expect((await client.get(`${FLAGS}/export_pdf`)).body).toEqual({ key: "export_pdf", enabled: true });
    expect((await client.get(`${FLAGS}/transcription`)).body).toEqual({ key: "transcription", enabled: false });
    expect((await client.get(`${FLAGS}/no_such_flag`)).body).toEqual({ key: "no_such_flag", enabled: false });
  });

  it("only superadmins list and upsert (403 otherwise)", async () => {
    const { client } = await signedUpClient();
    expectError(await client.get(FLAGS), 403, "FORBIDDEN");
    expectError(await client.post(FLAGS, { key: "beta", enabled: true }), 403, "FORBIDDEN");
    expectError(await client.delete(`${FLAGS}/transcription`), 403, "FORBIDDEN");
  });

  it("upsert: 201 then 200, validation, and the result reaches the boundary at once (cache invalidated)", async () => {
    const { client: admin } = await superadmin();
    const user = await signedUpClient();
    expectError(await admin.post(FLAGS, { key: "Bad Key!" }), 400, "VALIDATION_ERROR");
    expectError(await admin.post(FLAGS, { key: "x_y", rolloutPercentage: 101 }), 400, "VALIDATION_ERROR");
    expectError(await admin.post(FLAGS, { key: "x_y", rules: { plans: ["gold"] } }), 400, "VALIDATION_ERROR");

    const created = await admin.post(FLAGS, { key: "transcription", description: "Audio", rules: { allowOrgIds: [user.organization.id] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.flag).toMatchObject({ key: "transcription", enabled: false, source: "stored", description: "Audio" });
    expect((await user.client.get(`${FLAGS}/transcription`)).body.enabled).toBe(true);
    expect((await admin.get(`${FLAGS}/transcription`)).body.enabled).toBe(false);

    const updated = await admin.post(FLAGS, { key: "transcription", enabled: true, rules: { denyUserIds: [user.user.id] } });
    expect(updated.status).toBe(200);
    expect(updated.body.flag.description).toBe("Audio");
    expect((await user.client.get(`${FLAGS}/transcription`)).body.enabled).toBe(false);
    expect((await admin.get(`${FLAGS}/transcription`)).body.enabled).toBe(true);

    const list = await admin.get(FLAGS);
    const keys = list.body.flags.map((f: { key: string }) => f.key);
    expect(keys).toContain("export_pdf");
    expect(list.body.flags.find((f: { key: string }) => f.key === "transcription").source).toBe("stored");

    expect((await admin.delete(`${FLAGS}/transcription`)).body).toEqual({ success: true });
    expect((await admin.get(`${FLAGS}/transcription`)).body.enabled).toBe(false);
    expectError(await admin.delete(`${FLAGS}/transcription`), 404, "NOT_FOUND");
  });

  it("plan rules gate the boundary resolver", async () => {
    const { client: admin } = await superadmin();
    const user = await signedUpClient();
    await admin.post(FLAGS, { key: "export_docx", rules: { plans: ["pro", "enterprise"] } });
    const actor = { user: { id: user.user.id }, org: { id: user.organization.id, plan: "free" } } as never;
    expect(await isFeatureEnabled(actor, "export_docx")).toBe(false);
    await setPlan(user.organization.id, "pro");
    expect((await user.client.get(`${FLAGS}/export_docx`)).body.enabled).toBe(true);
    await admin.delete(`${FLAGS}/export_docx`);
  });
});

describe("/api/feedback/nps", () => {
  const age = (userId: string, days: number) =>
    db
      .updateTable("users")
      .set({ createdAt: new Date(Date.now() - days * 86400_000).toISOString() })
      .where("id", "=", userId)
      .execute();

  it("is not due for a new account, due after 7 days", async () => {
    const { client, user } = await signedUpClient();
    expect((await client.get("/api/feedback/nps")).body).toEqual({ due: false, lastResponse: null });
    await age(user.id, 8);
    expect((await client.get("/api/feedback/nps")).body.due).toBe(true);
  });

  it("is due after 3 projects even for a new account", async () => {
    const { client } = await signedUpClient();
    for (const name of ["a", "b", "c"]) await client.post("/api/projects", { name });
    expect((await client.get("/api/feedback/nps")).body.due).toBe(true);
  });

  it("answers with 201 {response}, validates, and is not due again for 90 days", async () => {
    const { client, user } = await signedUpClient();
    await age(user.id, 30);
    expectError(await client.post("/api/feedback/nps", { score: 11 }), 400, "VALIDATION_ERROR");
    expectError(await client.post("/api/feedback/nps", { score: 4.5 }), 400, "VALIDATION_ERROR");
    expectError(await client.post("/api/feedback/nps", {}), 400, "VALIDATION_ERROR");
    expectError(await client.post("/api/feedback/nps", { score: 5, comment: "x".repeat(2001) }), 400, "VALIDATION_ERROR");
    const res = await client.post("/api/feedback/nps", { score: 9, comment: "Great" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.response).toMatchObject({ score: 9, comment: "Great", dismissed: false });
    const status = (await client.get("/api/feedback/nps")).body;
    expect(status.due).toBe(false);
    expect(status.lastResponse).toMatchObject({ score: 9, comment: "Great" });
    await db
      .updateTable("npsResponses")
      .set({ createdAt: new Date(Date.now() - 91 * 86400_000).toISOString() })
      .where("userId", "=", user.id)
      .execute();
    expect((await client.get("/api/feedback/nps")).body.due).toBe(true);
  });

  it("a dismissal postpones the survey by 30 days", async () => {
    const { client, user } = await signedUpClient();
    await age(user.id, 30);
    const res = await client.post("/api/feedback/nps", { dismissed: true });
    expect(res.status).toBe(201);
    expect(res.body.response).toMatchObject({ dismissed: true, score: null });
    expect((await client.get("/api/feedback/nps")).body).toEqual({ due: false, lastResponse: null });
    await db
      .updateTable("npsResponses")
      .set({ createdAt: new Date(Date.now() - 31 * 86400_000).toISOString() })
      .where("userId", "=", user.id)
      .execute();
    expect((await client.get("/api/feedback/nps")).body.due).toBe(true);
  });

  it("needs a signed-in user", async () => {
    const { TestClient } = await import("../support/client");
    expectError(await new TestClient("10.88.0.1").get("/api/feedback/nps"), 401, "UNAUTHORIZED");
  });
});

describe("pages", () => {
  const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

  it("the survey on Home answers without JavaScript: thanks on the page, a bad score said as an error", async () => {
    const { client, user } = await signedUpClient();
    await db
      .updateTable("users")
      .set({ createdAt: new Date(Date.now() - 30 * 86400_000).toISOString() })
      .where("id", "=", user.id)
      .execute();
    const post = (fields: Record<string, string>) =>
      client.call("POST", "/feedback/nps", { body: new URLSearchParams({ redirectTo: "/home", ...fields }), headers: FORM });

    const bad = await post({ score: "12" });
    expect([bad.status, bad.headers.get("location")]).toEqual([302, "/home"]);
    const warned = await client.get("/home");
    expect(pageText(warned)).toContain("Pick a score from 0 to 10");
    expect(warned.text).toMatch(/role="alert"[^>]*>\s*<p>Pick a score/);
    expect((await client.get("/home")).text).not.toContain("Pick a score from 0 to 10"); // shown once

    const sent = await post({ score: "9", comment: "Useful" });
    expect(sent.status).toBe(302);
    const home = await client.get("/home");
    expect(home.text).toMatch(/role="status"[^>]*>\s*<p>Thanks for your feedback!/);
    expect((await db.selectFrom("npsResponses").select("score").where("userId", "=", user.id).executeTakeFirst())?.score).toBe(9);
  });

  it("/admin/flags: 403 for others; superadmins list and upsert through the form", async () => {
    const user = await signedUpClient();
    expect((await user.client.get("/admin/flags")).status).toBe(403);
    const { client } = await superadmin();
    const page = await client.get("/admin/flags");
    expect(page.status).toBe(200);
    expect(page.text).toContain("export_pdf");
    const saved = await client.call("POST", "/admin/flags", {
      body: new URLSearchParams({
        intent: "upsert",
        key: "page_flag",
        enabled: "true",
        rolloutPercentage: "",
        plan_pro: "on",
        allowOrgIds: user.organization.id,
      }),
      headers: FORM,
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);
    expect(saved.text).toContain("page_flag created");
    const flag = (await client.get(FLAGS)).body.flags.find((f: { key: string }) => f.key === "page_flag");
    expect(flag).toMatchObject({ enabled: true, rolloutPercentage: null, rules: { plans: ["pro"], allowOrgIds: [user.organization.id] } });
    const bad = await client.call("POST", "/admin/flags", {
      body: new URLSearchParams({ intent: "upsert", key: "page_flag", rolloutPercentage: "150" }),
      headers: FORM,
    });
    expect(bad.status).toBe(400);
  });

  it("/feedback/nps: the form records an answer or a dismissal and redirects back", async () => {
    const { client, user } = await signedUpClient();
    await db
      .updateTable("users")
      .set({ createdAt: new Date(Date.now() - 10 * 86400_000).toISOString() })
      .where("id", "=", user.id)
      .execute();
    expect((await client.get("/feedback/nps")).text).toContain('"due":true');
    const res = await client.call("POST", "/feedback/nps", {
      body: new URLSearchParams({ intent: "answer", score: "7", comment: "ok", redirectTo: "/projects" }),
      headers: FORM,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/projects");
    const row = await db.selectFrom("npsResponses").selectAll().where("userId", "=", user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ score: 7, comment: "ok", dismissed: 0 });
    const evil = await client.call("POST", "/feedback/nps", { body: new URLSearchParams({ intent: "dismiss", redirectTo: "//evil.example" }), headers: FORM });
    expect(evil.headers.get("Location")).toBe("/home");
    const rows = await db.selectFrom("npsResponses").select("dismissed").where("userId", "=", user.id).execute();
    expect(rows.map((r) => r.dismissed).sort()).toEqual([0, 1]);
  });
});
