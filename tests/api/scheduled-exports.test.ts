import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";
import { signedUpClient } from "../support/client";

/** Scheduled exports: CRUD, both vocabularies, validation, plan gate, roles, cross-org, /run, logs. */

const API = "/api/scheduled-exports";
let owner: Account;
let projectId: string;

const weekly = (extra: Record<string, unknown> = {}) => ({
  projectId,
  scheduleType: "weekly",
  format: "html",
  timezone: "Europe/Berlin",
  deliveryMethod: "email",
  recipients: ["team@example.com"],
  ...extra,
});

async function create(account: Account, body: Record<string, unknown>) {
  const res = await account.client.post(API, body);
  expect(res.status, res.text).toBe(201);
  return res.body.schedule;
}

const detailPaths = (res: { body: { details?: { path: string }[] } }) => (res.body.details ?? []).map((d) => d.path).sort();

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olga Owner" });
  await setPlan(owner.organization.id, "pro");
  const p = await owner.client.post("/api/projects", { name: "Atlas" });
  projectId = p.body.id;
});

describe("plan gate", () => {
  it("answers 403 PLAN_UPGRADE_REQUIRED on free and starter, on every endpoint", async () => {
    for (const plan of ["free", "starter"] as const) {
      const someone = await signedUpClient();
      await setPlan(someone.organization.id, plan);
      expectError(await someone.client.get(API), 403, "PLAN_UPGRADE_REQUIRED");
      const res = await someone.client.post(API, weekly());
      expectError(res, 403, "PLAN_UPGRADE_REQUIRED");
      expect(res.body.error).toMatch(/Pro plan/);
      expectError(await someone.client.post(`${API}/x/trigger`), 403, "PLAN_UPGRADE_REQUIRED");
      expectError(await someone.client.get(`${API}/x/logs`), 403, "PLAN_UPGRADE_REQUIRED");
    }
  });

  it("lets enterprise in", async () => {
    const ent = await signedUpClient();
    await setPlan(ent.organization.id, "enterprise");
    expect((await ent.client.get(API)).body).toEqual({ schedules: [] });
  });
});

describe("create, read, update, delete", () => {
  it("creates a weekly e-mail export (Mondays 09:00 local) and reads it back", async () => {
    const s = await create(owner, weekly({ includeChangelog: true, customSubject: "Atlas this week", customMessage: "Hi all" }));
    expect(s).toMatchObject({
      projectId,
      projectName: "Atlas",
      scheduleType: "weekly",
      format: "html",
      timezone: "Europe/Berlin",
      deliveryMethod: "email",
      recipients: ["team@example.com"],
      webhookUrl: null,
      includeChangelog: true,
      customSubject: "Atlas this week",
      customMessage: "Hi all",
      isActive: true,
      lastRunAt: null,
      lastDeliveryStatus: null,
    });
    expect(s).not.toHaveProperty("webhookSecret");
    const next = new Date(s.nextRunAt);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    const local = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", weekday: "long", hour: "2-digit", minute: "2-digit" }).format(next);
    expect(local).toBe("Monday 09:00");
    const got = await owner.client.get(`${API}/${s.id}`);
    expect(got.status).toBe(200);
    expect(got.body.schedule).toEqual(s);
    const list = await owner.client.get(`${API}?projectId=${projectId}`);
    expect(list.body.schedules.map((x: { id: string }) => x.id)).toContain(s.id);
  });

  it("accepts both vocabularies and answers in the canonical one", async () => {
    const digest = await create(owner, weekly({ scheduleType: "weekly_digest" }));
    expect(digest.scheduleType).toBe("weekly");
    const custom = await create(owner, weekly({ scheduleType: "custom_cron", cronExpression: "0 9 * * 1-5" }));
    expect(custom.scheduleType).toBe("cron");
    expect(custom.cronExpression).toBe("0 9 * * 1-5");
    const plain = await create(owner, weekly({ scheduleType: "cron", cronExpression: "30 17 * * 5", timezone: "America/New_York" }));
    expect(
      new Intl.DateTimeFormat("en-GB", { timeZone: "America/New_York", weekday: "short", hour: "2-digit", minute: "2-digit" }).format(
        new Date(plain.nextRunAt),
      ),
    ).toBe("Fri 17:30");
    const patched = await owner.client.patch(`${API}/${plain.id}`, { scheduleType: "weekly_digest" });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.schedule).toMatchObject({ scheduleType: "weekly", cronExpression: null });
  });

  it("creates one_time (local time in its timezone) and on_status_change schedules", async () => {
    const once = await create(owner, weekly({ scheduleType: "one_time", scheduledAt: "2031-06-01T10:00", timezone: "Europe/Berlin" }));
    expect(once.scheduledAt).toBe("2031-06-01T08:00:00.000Z");
    expect(once.nextRunAt).toBe("2031-06-01T08:00:00.000Z");
    const status = await create(owner, weekly({ scheduleType: "on_status_change", triggerStatus: "approved" }));
    expect(status).toMatchObject({ triggerStatus: "APPROVED", nextRunAt: null });
  });

  it("creates a webhook export and returns its signing secret once", async () => {
    const s = await create(owner, weekly({ deliveryMethod: "webhook", recipients: undefined, webhookUrl: "https://hooks.example.com/prd" }));
    expect(s.webhookSecret).toMatch(/^whsec_[0-9a-f]{48}$/);
    expect(s.recipients).toEqual([]);
    const row = await db.selectFrom("scheduledExports").select("webhookSecret").where("id", "=", s.id).executeTakeFirstOrThrow();
    expect(row.webhookSecret).not.toContain(s.webhookSecret);
    expect((await owner.client.get(`${API}/${s.id}`)).body.schedule).not.toHaveProperty("webhookSecret");
    // Switching to e-mail drops the URL and the secret; back to webhook makes a new secret.
    const toEmail = await owner.client.patch(`${API}/${s.id}`, { deliveryMethod: "email", recipients: "a@example.com, b@example.com" });
    expect(toEmail.body.schedule).toMatchObject({ deliveryMethod: "email", webhookUrl: null, recipients: ["a@example.com", "b@example.com"] });
    const back = await owner.client.patch(`${API}/${s.id}`, { deliveryMethod: "webhook", webhookUrl: "https://hooks.example.com/other" });
    expect(back.body.schedule.webhookSecret).toMatch(/^whsec_/);
    expect(back.body.schedule.webhookSecret).not.toBe(s.webhookSecret);
    expect(back.body.schedule.recipients).toEqual([]);
  });

  it("pauses (no next run) and resumes (next run computed from now); deletes", async () => {
    const s = await create(owner, weekly());
    const paused = await owner.client.patch(`${API}/${s.id}`, { isActive: false });
    expect(paused.body.schedule).toMatchObject({ isActive: false, nextRunAt: null });
    const resumed = await owner.client.patch(`${API}/${s.id}`, { isActive: true });
    expect(resumed.body.schedule).toMatchObject({ isActive: true, nextRunAt: s.nextRunAt });
    const renamed = await owner.client.patch(`${API}/${s.id}`, { customSubject: "New subject" });
    expect(renamed.body.schedule.nextRunAt).toBe(s.nextRunAt);
    const del = await owner.client.delete(`${API}/${s.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expectError(await owner.client.get(`${API}/${s.id}`), 404, "NOT_FOUND");
    const audit = await db.selectFrom("auditLogs").select("action").where("targetId", "=", s.id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual([
      "scheduled_export.created",
      "scheduled_export.deleted",
      "scheduled_export.updated",
      "scheduled_export.updated",
      "scheduled_export.updated",
    ]);
  });
});

describe("validation", () => {
  it("requires scheduleType, format, timezone and deliveryMethod, naming each", async () => {
    const res = await owner.client.post(API, { projectId });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(detailPaths(res)).toEqual(["deliveryMethod", "format", "scheduleType", "timezone"]);
    const bad = await owner.client.post(API, weekly({ scheduleType: "daily", format: "pptx", deliveryMethod: "fax" }));
    expect(detailPaths(bad)).toEqual(["deliveryMethod", "format", "scheduleType"]);
    expect(bad.body.details.find((d: { path: string }) => d.path === "scheduleType").message).toMatch(/weekly_digest/);
  });

  it("refuses an invalid cron expression, timezone, status and past one-time date", async () => {
    const cron = await owner.client.post(API, weekly({ scheduleType: "cron", cronExpression: "every monday" }));
    expectError(cron, 400, "VALIDATION_ERROR");
    expect(detailPaths(cron)).toEqual(["cronExpression"]);
    expect(detailPaths(await owner.client.post(API, weekly({ scheduleType: "cron" })))).toEqual(["cronExpression"]);
    expect(detailPaths(await owner.client.post(API, weekly({ scheduleType: "cron", cronExpression: "* * * * *" })))).toEqual(["cronExpression"]);
    const tz = await owner.client.post(API, weekly({ timezone: "Mars/Olympus" }));
    expect(detailPaths(tz)).toEqual(["timezone"]);
    expect(tz.body.error).toMatch(/IANA/);
    expect(detailPaths(await owner.client.post(API, weekly({ scheduleType: "on_status_change", triggerStatus: "SHIPPED" })))).toEqual(["triggerStatus"]);
    expect(detailPaths(await owner.client.post(API, weekly({ scheduleType: "on_status_change" })))).toEqual(["triggerStatus"]);
    expect(detailPaths(await owner.client.post(API, weekly({ scheduleType: "one_time", scheduledAt: "2001-01-01T00:00:00Z" })))).toEqual(["scheduledAt"]);
    expect(detailPaths(await owner.client.post(API, weekly({ scheduleType: "one_time", scheduledAt: "soon" })))).toEqual(["scheduledAt"]);
    expect(detailPaths(await owner.client.post(API, weekly({ scheduleType: "one_time" })))).toEqual(["scheduledAt"]);
    // A field of another type is refused rather than silently ignored.
    expect(detailPaths(await owner.client.post(API, weekly({ cronExpression: "0 9 * * 1" })))).toEqual(["cronExpression"]);
  });

  it("checks recipients and webhook URLs (private targets refused)", async () => {
    expect(detailPaths(await owner.client.post(API, weekly({ recipients: [] })))).toEqual(["recipients"]);
    expect(detailPaths(await owner.client.post(API, weekly({ recipients: ["not-an-address"] })))).toEqual(["recipients.0"]);
    const many = Array.from({ length: 21 }, (_, i) => `r${i}@example.com`);
    expect(detailPaths(await owner.client.post(API, weekly({ recipients: many })))).toEqual(["recipients"]);
    const hook = (webhookUrl: unknown) => owner.client.post(API, weekly({ deliveryMethod: "webhook", recipients: undefined, webhookUrl }));
    expect(detailPaths(await hook(undefined))).toEqual(["webhookUrl"]);
    expect(detailPaths(await hook("ftp://example.com/x"))).toEqual(["webhookUrl"]);
    const local = await hook("http://127.0.0.1:8080/hook");
    expect(detailPaths(local)).toEqual(["webhookUrl"]);
    expect(local.body.error).toMatch(/private|loopback/);
    expect(detailPaths(await hook("http://localhost/hook"))).toEqual(["webhookUrl"]);
    expect(detailPaths(await owner.client.post(API, weekly({ webhookUrl: "https://example.com/x" })))).toEqual(["webhookUrl"]);
  });

  it("a projectId must be a project of the organization; without one it is a digest of all projects (scheduled-exports-digest.test.ts)", async () => {
    expectError(await owner.client.post(API, weekly({ projectId: "nope" })), 404, "NOT_FOUND");
    expect((await create(owner, weekly({ projectId: undefined }))).projectId).toBeNull();
    // Values are exact, as the OpenAPI enums say.
    expect(detailPaths(await owner.client.post(API, weekly({ format: "PDF", deliveryMethod: "Email" })))).toEqual(["deliveryMethod", "format"]);
  });
});

describe("access", () => {
  it("hides other organizations' schedules (404) and refuses their projects", async () => {
    const s = await create(owner, weekly());
    const other = await signedUpClient();
    await setPlan(other.organization.id, "pro");
    for (const res of [
      await other.client.get(`${API}/${s.id}`),
      await other.client.patch(`${API}/${s.id}`, { isActive: false }),
      await other.client.delete(`${API}/${s.id}`),
      await other.client.post(`${API}/${s.id}/trigger`),
      await other.client.post(`${API}/${s.id}/run`),
      await other.client.get(`${API}/${s.id}/logs`),
      await other.client.post(API, weekly()),
      await other.client.get(`${API}?projectId=${projectId}`),
    ]) {
      expectError(res, 404, "NOT_FOUND");
    }
    expect((await other.client.get(API)).body.schedules).toEqual([]);
    expect((await db.selectFrom("scheduledExports").select("isActive").where("id", "=", s.id).executeTakeFirstOrThrow()).isActive).toBe(1);
  });

  it("members manage schedules of projects they can edit; viewers cannot create", async () => {
    const member = await joinOrg(owner.organization.id, "member", "Mia Member");
    const viewer = await joinOrg(owner.organization.id, "viewer", "Vic Viewer");
    const mine = (await member.client.post("/api/projects", { name: "Mia's project" })).body.id;
    const own = await create(member, weekly({ projectId: mine }));
    expect((await member.client.patch(`${API}/${own.id}`, { format: "markdown" })).body.schedule.format).toBe("markdown");
    // The owner's project: readable, not editable by the member.
    expectError(await member.client.post(API, weekly()), 403, "FORBIDDEN");
    const ownerSchedule = await create(owner, weekly());
    expect((await member.client.get(`${API}/${ownerSchedule.id}`)).status).toBe(200);
    expectError(await member.client.patch(`${API}/${ownerSchedule.id}`, { isActive: false }), 403, "FORBIDDEN");
    expectError(await member.client.post(`${API}/${ownerSchedule.id}/trigger`), 403, "FORBIDDEN");
    expectError(await member.client.delete(`${API}/${ownerSchedule.id}`), 403, "FORBIDDEN");
    // Viewers: no create, and only schedules of projects shared with them.
    expectError(await viewer.client.post(API, weekly()), 403, "FORBIDDEN");
    expect((await viewer.client.get(API)).body.schedules).toEqual([]);
    expectError(await viewer.client.get(`${API}/${ownerSchedule.id}`), 404, "NOT_FOUND");
  });
});

describe("running now and the delivery log", () => {
  it("trigger answers 202 with a pending log entry; /run does the same, deprecated with a Link to /trigger", async () => {
    const s = await create(owner, weekly());
    const t = await owner.client.post(`${API}/${s.id}/trigger`);
    expect(t.status, t.text).toBe(202);
    expect(t.body.log).toMatchObject({ scheduledExportId: s.id, status: "pending", deliveryMethod: "email", recipients: ["team@example.com"], error: null });
    expect(t.headers.get("Deprecation")).toBeNull();
    // A second manual run while the first is pending: 409.
    expectError(await owner.client.post(`${API}/${s.id}/trigger`), 409, "CONFLICT");
    await db.updateTable("scheduledExportRuns").set({ status: "done" }).where("id", "=", t.body.runId).execute();
    const r = await owner.client.post(`${API}/${s.id}/run`);
    expect(r.status, r.text).toBe(202);
    expect(r.headers.get("Deprecation")).toBe("true");
    expect(r.headers.get("Link")).toBe(`</api/scheduled-exports/${s.id}/trigger>; rel="successor-version"`);
    expect(r.body.log.status).toBe("pending");
    const logs = await owner.client.get(`${API}/${s.id}/logs`);
    expect(logs.body.logs.map((l: { id: string }) => l.id)).toEqual([r.body.log.id, t.body.log.id]);
    const openapi = await owner.client.get("/api/openapi.json");
    expect(openapi.body.paths["/api/scheduled-exports/{exportId}/run"].post.deprecated).toBe(true);
    expect(openapi.body.paths["/api/scheduled-exports/{exportId}/trigger"].post.deprecated).toBeUndefined();
  });

  it("returns the last 50 log entries, newest first, with the spec's fields", async () => {
    const s = await create(owner, weekly());
    const base = Date.parse("2030-01-01T00:00:00Z");
    await db
      .insertInto("exportDeliveryLogs")
      .values(
        Array.from({ length: 60 }, (_, i) => ({
          id: `log-${String(i).padStart(2, "0")}`,
          scheduledExportId: s.id,
          runId: null,
          status: i % 2 ? ("delivered" as const) : ("failed" as const),
          deliveryMethod: "email" as const,
          recipients: JSON.stringify(["team@example.com"]),
          error: i % 2 ? null : "SMTP said no",
          createdAt: new Date(base + i * 60_000).toISOString(),
          updatedAt: new Date(base + i * 60_000).toISOString(),
        })),
      )
      .execute();
    const res = await owner.client.get(`${API}/${s.id}/logs`);
    expect(res.status).toBe(200);
    expect(res.body.logs).toHaveLength(50);
    expect(res.body.logs[0]).toEqual({
      id: "log-59",
      scheduledExportId: s.id,
      runId: null,
      status: "delivered",
      deliveryMethod: "email",
      recipients: ["team@example.com"],
      error: null,
      createdAt: new Date(base + 59 * 60_000).toISOString(),
      updatedAt: new Date(base + 59 * 60_000).toISOString(),
    });
    expect(res.body.logs[49].id).toBe("log-10");
    expect(res.body.logs[1]).toMatchObject({ status: "failed", error: "SMTP said no" });
    expect((await owner.client.get(`${API}/${s.id}`)).body.schedule.lastDeliveryStatus).toBe("delivered");
  });
});
