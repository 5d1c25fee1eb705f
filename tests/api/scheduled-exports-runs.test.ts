import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Account } from "../support/org";
import { type Receiver, startReceiver, verifySignature } from "./webhooks-support";

/**
 * Running scheduled exports with a controllable clock: the tick and the job
 * worker get `now`. E-mail goes to a real SMTP server on loopback, webhooks
 * to a loopback receiver that checks the HMAC signature.
 *
 * config() is parsed once on first use (setup.ts's migrations), so SMTP_URL
 * and ALLOW_PRIVATE_WEBHOOK_TARGETS are set at module top level, and app
 * modules are imported dynamically afterwards (as in mail.test.ts).
 */

interface Mail {
  rcptTo: string[];
  raw: string;
}
const mails: Mail[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      mails.push({ rcptTo: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
      callback();
    });
  },
});
await new Promise<void>((resolve, reject) => {
  smtp.once("error", reject);
  smtp.listen(0, "127.0.0.1", () => resolve());
});
process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
process.env.ALLOW_PRIVATE_WEBHOOK_TARGETS = "true";

const { db } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/worker.server");
(await import("~/jobs/handlers.server")).registerBackgroundWork();
const { tickScheduledExports } = await import("~/domain/scheduled-exports/runs.server");
const { startScheduler, stopScheduler } = await import("~/jobs/scheduler.server");
const { signedUpClient } = await import("../support/client");
const { setPlan } = await import("../support/org");

const API = "/api/scheduled-exports";
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const PRD = "# Goals\nShip the Atlas beta.\n\n# Scope\nWeb only.\n";

let owner: Account;
let projectId: string;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  owner = await signedUpClient({ name: "Olga Owner" });
  await setPlan(owner.organization.id, "pro");
  projectId = (await owner.client.post("/api/projects", { name: "Atlas" })).body.id;
  expect((await owner.client.post(`/api/projects/${projectId}/prd`, { content: PRD })).status).toBe(201);
});
afterAll(async () => {
  await receiver.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});
beforeEach(async () => {
  // Schedules (with their runs) of earlier tests go first; then what they left settles.
  await db.deleteFrom("scheduledExports").execute();
  await runDueJobs();
  await db.deleteFrom("jobs").execute();
  mails.length = 0;
  receiver.received.length = 0;
  receiver.respond = () => 200;
});

async function create(body: Record<string, unknown>) {
  const res = await owner.client.post(API, { projectId, format: "html", timezone: "UTC", ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.schedule as { id: string; nextRunAt: string | null; webhookSecret?: string };
}
const emailTo = (to = ["team@example.com", "cto@example.com"]) => ({ deliveryMethod: "email", recipients: to });
const webhook = () => ({ deliveryMethod: "webhook", webhookUrl: receiver.url });

const runsOf = (id: string) => db.selectFrom("scheduledExportRuns").selectAll().where("scheduleId", "=", id).orderBy("createdAt").execute();
const row = (id: string) => db.selectFrom("scheduledExports").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const logs = async (id: string) =>
  (await owner.client.get(`${API}/${id}/logs`)).body.logs as { status: string; error: string | null; recipients: string[]; deliveryMethod: string }[];

/** The attachments of a raw MIME message: filename, content type, decoded body. */
function attachments(raw: string) {
  const out: { filename: string; contentType: string; body: Buffer }[] = [];
  for (const part of raw.replace(/\r\n/g, "\n").split(/\n--[^\n]+\n/)) {
    const [head = "", ...rest] = part.split("\n\n");
    const headers = head.replace(/\n[ \t]+/g, " ");
    if (!/Content-Disposition: attachment/i.test(headers)) continue;
    const filename = /filename="?([^";\n]+)"?/i.exec(headers)?.[1] ?? "";
    const contentType = /Content-Type: ([^;\n]+)/i.exec(headers)?.[1] ?? "";
    const body = rest.join("\n\n").replace(/\n--[\s\S]*$/, "");
    out.push({ filename, contentType, body: Buffer.from(body.replace(/\s+/g, ""), "base64") });
  }
  return out;
}
const subjectOf = (raw: string) => /^Subject: (.*)$/im.exec(raw.replace(/\r\n[ \t]+/g, " "))?.[1];

describe("time-based runs with a controllable clock", () => {
  it("a weekly e-mail runs once when due: delivered to every recipient with the file attached, and logged", async () => {
    const s = await create({ scheduleType: "weekly_digest", ...emailTo(), customSubject: "Atlas weekly", customMessage: "Here is this week's PRD." });
    const due = new Date(s.nextRunAt!);

    expect(await tickScheduledExports(new Date(due.getTime() - MIN))).toEqual({ due: 0, started: 0 });
    expect(await runsOf(s.id)).toHaveLength(0);

    expect(await tickScheduledExports(due)).toEqual({ due: 1, started: 1 });
    // The same minute again, or a second tick racing it: nothing more.
    const again = await Promise.all([tickScheduledExports(due), tickScheduledExports(new Date(due.getTime() + 30_000))]);
    expect(again).toEqual([
      { due: 0, started: 0 },
      { due: 0, started: 0 },
    ]);
    const [run] = await runsOf(s.id);
    expect(run).toMatchObject({ scheduledFor: due.toISOString(), reason: "schedule", status: "pending" });
    expect((await row(s.id)).nextRunAt).toBe(new Date(due.getTime() + 7 * DAY).toISOString());
    expect(await logs(s.id)).toMatchObject([{ status: "pending", deliveryMethod: "email", recipients: ["team@example.com", "cto@example.com"] }]);

    await runDueJobs({ now: new Date(due.getTime() + 1000) });
    expect(mails.map((m) => m.rcptTo).sort()).toEqual([["cto@example.com"], ["team@example.com"]]);
    for (const mail of mails) {
      expect(subjectOf(mail.raw)).toBe("Atlas weekly");
      expect(mail.raw).toContain("Here is this week's PRD.");
      const [file] = attachments(mail.raw);
      expect(file).toMatchObject({ filename: "Atlas.html", contentType: "text/html" });
      expect(file!.body.toString("utf8")).toContain("Ship the Atlas beta.");
    }
    expect(await logs(s.id)).toMatchObject([{ status: "delivered", error: null }]);
    const after = await row(s.id);
    expect(after.lastRunAt).toBe(new Date(due.getTime() + 1000).toISOString());
    expect(after.lastDeliveredContent).toBe(PRD);
    expect((await runsOf(s.id))[0]!.status).toBe("done");
    const emails = await db.selectFrom("emails").select(["status", "kind", "attachments"]).where("kind", "=", "scheduled_export").execute();
    expect(emails.map((e) => e.status)).toEqual(["sent", "sent"]);
    // Once sent, the file is not kept in the database; its name stays for the outbox.
    expect(JSON.parse(emails[0]!.attachments!)).toEqual([{ filename: "Atlas.html", contentType: "text/html; charset=utf-8", content: "" }]);
    const events = await db.selectFrom("events").select(["name", "data"]).where("name", "like", "export.%").execute();
    expect(events.map((e) => e.name)).toEqual(["export.completed"]);
    expect(JSON.parse(events[0]!.data)).toMatchObject({ scheduledExportId: s.id, projectId, format: "html", deliveryMethod: "email", reason: "schedule" });

    // Nothing runs twice: a later worker pass and tick send no more mail.
    await tickScheduledExports(new Date(due.getTime() + HOUR));
    await runDueJobs({ now: new Date(due.getTime() + HOUR) });
    expect(mails).toHaveLength(2);
    expect(await runsOf(s.id)).toHaveLength(1);
  });

  it("occurrences missed while the server was down become one catch-up run, also through the start-up tick", async () => {
    const s = await create({ scheduleType: "cron", cronExpression: "0 9 * * *", ...emailTo(["ops@example.com"]) });
    const first = new Date(s.nextRunAt!);
    // Down for three days and a bit: three occurrences missed.
    const back = new Date(first.getTime() + 3 * DAY + 5 * MIN);
    expect(await tickScheduledExports(back)).toEqual({ due: 1, started: 1 });
    expect(await tickScheduledExports(back)).toEqual({ due: 0, started: 0 });
    const runs = await runsOf(s.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ reason: "catch_up", scheduledFor: first.toISOString() });
    expect((await row(s.id)).nextRunAt).toBe(new Date(first.getTime() + 4 * DAY).toISOString());

    // A restart that lost the advance of nextRunAt cannot double the run: the occurrence is unique.
    await db.updateTable("scheduledExports").set({ nextRunAt: first.toISOString() }).where("id", "=", s.id).execute();
    expect(await tickScheduledExports(back)).toEqual({ due: 1, started: 0 });
    expect(await runsOf(s.id)).toHaveLength(1);

    // The scheduler's start-up tick (real clock) catches up a schedule that was due while it was off.
    const missed = new Date(Date.now() - 2 * DAY).toISOString();
    await db.updateTable("scheduledExports").set({ nextRunAt: missed }).where("id", "=", s.id).execute();
    await startScheduler();
    stopScheduler();
    const all = await runsOf(s.id);
    expect(all).toHaveLength(2);
    expect(all).toContainEqual(expect.objectContaining({ reason: "catch_up", scheduledFor: missed }));
    expect(new Date((await row(s.id)).nextRunAt!).getTime()).toBeGreaterThan(Date.now());
    await runDueJobs({ now: new Date(back.getTime() + MIN) });
    expect(mails).toHaveLength(2);
    expect((await logs(s.id)).map((l) => l.status)).toEqual(["delivered", "delivered"]);
  });

  it("advances across the daylight-saving change in the schedule's timezone", async () => {
    const s = await create({ scheduleType: "cron", cronExpression: "0 9 * * *", timezone: "America/New_York", ...emailTo() });
    await db.updateTable("scheduledExports").set({ nextRunAt: "2025-03-08T14:00:00.000Z" }).where("id", "=", s.id).execute();
    await tickScheduledExports(new Date("2025-03-08T14:00:00Z"));
    expect((await row(s.id)).nextRunAt).toBe("2025-03-09T13:00:00.000Z"); // 09:00 EDT
    await tickScheduledExports(new Date("2025-03-09T13:00:00Z"));
    expect((await row(s.id)).nextRunAt).toBe("2025-03-10T13:00:00.000Z");
    await db.updateTable("scheduledExports").set({ nextRunAt: "2025-11-01T13:00:00.000Z" }).where("id", "=", s.id).execute();
    await tickScheduledExports(new Date("2025-11-01T13:00:00Z"));
    expect((await row(s.id)).nextRunAt).toBe("2025-11-02T14:00:00.000Z"); // 09:00 EST
    expect((await runsOf(s.id)).map((r) => r.scheduledFor)).toEqual(["2025-03-08T14:00:00.000Z", "2025-03-09T13:00:00.000Z", "2025-11-01T13:00:00.000Z"]);
  });

  it("a one-time export runs once and then has no next run", async () => {
    const when = new Date(Date.now() + 2 * HOUR);
    when.setUTCSeconds(0, 0);
    const s = await create({ scheduleType: "one_time", scheduledAt: when.toISOString(), ...webhook() });
    expect(s.nextRunAt).toBe(when.toISOString());
    expect(await tickScheduledExports(when)).toEqual({ due: 1, started: 1 });
    expect((await row(s.id)).nextRunAt).toBeNull();
    expect(await tickScheduledExports(new Date(when.getTime() + 30 * DAY))).toEqual({ due: 0, started: 0 });
    await runDueJobs({ now: when });
    expect(receiver.received).toHaveLength(1);
    expect((await row(s.id)).isActive).toBe(1);
  });

  it("a paused schedule does not run; it is not caught up when resumed", async () => {
    const s = await create({ scheduleType: "cron", cronExpression: "0 9 * * *", ...emailTo() });
    const due = new Date(s.nextRunAt!);
    await owner.client.patch(`${API}/${s.id}`, { isActive: false });
    expect(await tickScheduledExports(new Date(due.getTime() + DAY))).toEqual({ due: 0, started: 0 });
    const resumed = await owner.client.patch(`${API}/${s.id}`, { isActive: true });
    expect(new Date(resumed.body.schedule.nextRunAt).getTime()).toBeGreaterThan(Date.now());
    expect(await runsOf(s.id)).toHaveLength(0);
  });
});

describe("status-change webhooks", () => {
  it("PATCH …/status to the trigger status delivers a signed webhook with the file, once, and logs it", async () => {
    const s = await create({ scheduleType: "on_status_change", triggerStatus: "IN_REVIEW", format: "markdown", includeChangelog: true, ...webhook() });
    expect(s.webhookSecret).toMatch(/^whsec_/);
    const other = await create({ scheduleType: "on_status_change", triggerStatus: "APPROVED", ...webhook() });

    expect((await owner.client.patch(`/api/projects/${projectId}/status`, { status: "IN_PROGRESS" })).status).toBe(200);
    await runDueJobs();
    expect(receiver.received).toHaveLength(0);

    expect((await owner.client.patch(`/api/projects/${projectId}/status`, { status: "IN_REVIEW" })).status).toBe(200);
    await runDueJobs();
    expect(receiver.received).toHaveLength(1);
    const [hit] = receiver.received;
    expect(verifySignature(s.webhookSecret!, hit!.raw, hit!.headers["x-webhook-signature"])).toBe(true);
    expect(verifySignature(other.webhookSecret!, hit!.raw, hit!.headers["x-webhook-signature"])).toBe(false);
    expect(hit!.headers["x-webhook-event"]).toBe("export.scheduled");
    const body = JSON.parse(hit!.raw);
    expect(body).toMatchObject({
      event: "export.scheduled",
      scheduleId: s.id,
      projectId,
      format: "markdown",
      filename: "Atlas.md",
      contentType: "text/markdown; charset=utf-8",
      changelog: { firstDelivery: true },
    });
    expect(Buffer.from(body.content, "base64").toString("utf8")).toBe(`# Atlas\n\n${PRD}`);
    expect(hit!.headers["x-webhook-timestamp"]).toBe(body.generatedAt);
    const [log] = await logs(s.id);
    expect(log).toMatchObject({ status: "delivered", deliveryMethod: "webhook", recipients: [receiver.url], error: null });
    expect(hit!.headers["x-webhook-id"]).toBe(
      (await db.selectFrom("exportDeliveryLogs").select("id").where("scheduledExportId", "=", s.id).executeTakeFirstOrThrow()).id,
    );
    expect((await runsOf(s.id))[0]!.reason).toBe("status_change");
    expect(await runsOf(other.id)).toHaveLength(0);

    // Dispatching the same event again (listeners are at-least-once) does not run it twice.
    const event = await db
      .selectFrom("events")
      .select("id")
      .where("name", "=", "project.status_changed")
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    await db.updateTable("events").set({ processedAt: null }).where("id", "=", event.id).execute();
    await runDueJobs();
    expect(await runsOf(s.id)).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);

    // Next time, the changelog tells what changed since this delivery.
    await owner.client.patch(`/api/projects/${projectId}/prd`, { content: `${PRD}\n# Risks\nTimeline.\n` });
    await owner.client.patch(`/api/projects/${projectId}/status`, { status: "DRAFT" });
    await owner.client.patch(`/api/projects/${projectId}/status`, { status: "IN_REVIEW" });
    await runDueJobs();
    expect(receiver.received).toHaveLength(2);
    const second = JSON.parse(receiver.received[1]!.raw);
    expect(second.changelog).toMatchObject({ firstDelivery: false, sectionsAdded: ["Risks"], linesAdded: 3, linesRemoved: 0 });
    await owner.client.patch(`/api/projects/${projectId}/prd`, { content: PRD });
  });

  it("a failing receiver: the log stays pending with each error, retried with backoff, then failed with the error", async () => {
    receiver.respond = () => 500;
    const s = await create({ scheduleType: "weekly", ...webhook() });
    const trigger = await owner.client.post(`${API}/${s.id}/trigger`);
    expect(trigger.status).toBe(202);
    let now = Date.now() + 1000;
    await runDueJobs({ now: new Date(now) });
    expect(await logs(s.id)).toMatchObject([{ status: "pending", error: "Attempt 1 of 6 failed: HTTP 500: receiver error" }]);
    for (let attempt = 2; attempt <= 6; attempt++) {
      now += 2 * HOUR;
      await runDueJobs({ now: new Date(now) });
    }
    expect(receiver.received).toHaveLength(6);
    // Every attempt carries the same delivery id.
    expect(new Set(receiver.received.map((r) => r.headers["x-webhook-id"])).size).toBe(1);
    expect(await logs(s.id)).toMatchObject([{ status: "failed", error: "HTTP 500: receiver error" }]);
    expect((await runsOf(s.id))[0]!.status).toBe("failed");
    const failed = await db.selectFrom("events").select("data").where("name", "=", "export.failed").execute();
    expect(failed.map((e) => JSON.parse(e.data))).toContainEqual(
      expect.objectContaining({ scheduledExportId: s.id, error: "HTTP 500: receiver error", reason: "manual" }),
    );
    expect((await row(s.id)).lastDeliveredContent).toBeNull();
    // Given up: later runs of the worker send nothing more.
    await runDueJobs({ now: new Date(now + DAY) });
    expect(receiver.received).toHaveLength(6);
  });

  it("a refused target fails at once without retries", async () => {
    const s = await create({ scheduleType: "weekly", ...webhook() });
    process.env.ALLOW_PRIVATE_WEBHOOK_TARGETS = "false";
    const { resetConfigForTests } = await import("~/config.server");
    resetConfigForTests();
    try {
      await owner.client.post(`${API}/${s.id}/trigger`);
      await runDueJobs({ now: new Date(Date.now() + 1000) });
    } finally {
      process.env.ALLOW_PRIVATE_WEBHOOK_TARGETS = "true";
      resetConfigForTests();
    }
    const [log] = await logs(s.id);
    expect(log!.status).toBe("failed");
    expect(log!.error).toMatch(/^Refused: 127\.0\.0\.1 is a private or reserved address/);
    expect(receiver.received).toHaveLength(0);
  });

  it("a run for an organization no longer on Pro fails with a clear error", async () => {
    const s = await create({ scheduleType: "weekly", ...emailTo() });
    await owner.client.post(`${API}/${s.id}/trigger`);
    await setPlan(owner.organization.id, "starter");
    try {
      await runDueJobs({ now: new Date(Date.now() + 1000) });
    } finally {
      await setPlan(owner.organization.id, "pro");
    }
    expect(await logs(s.id)).toMatchObject([{ status: "failed", error: "Scheduled exports need the Pro plan or above; this organization is on Starter" }]);
    // Nothing went to the recipients; the schedule's creator is told (export.failed → notification).
    expect(mails.flatMap((m) => m.rcptTo)).toEqual([owner.email]);
    expect(subjectOf(mails[0]!.raw)).toBe("Your export failed: Atlas");
    const notes = await owner.client.get("/api/notifications");
    expect(JSON.stringify(notes.body)).toContain("Your export failed: Atlas");
  });

  it("delivers PDF and DOCX files as real documents", async () => {
    for (const [format, filename, magic] of [
      ["pdf", "Atlas.pdf", "%PDF-"],
      ["docx", "Atlas.docx", "PK"],
    ] as const) {
      mails.length = 0;
      const s = await create({ scheduleType: "weekly", format, ...emailTo(["pdf@example.com"]) });
      expect((await owner.client.post(`${API}/${s.id}/trigger`)).status).toBe(202);
      await runDueJobs({ now: new Date(Date.now() + 1000) });
      expect(await logs(s.id)).toMatchObject([{ status: "delivered", error: null }]);
      const [file] = attachments(mails[0]!.raw);
      expect(file!.filename).toBe(filename);
      expect(file!.body.subarray(0, magic.length).toString("latin1")).toBe(magic);
      expect(file!.body.length).toBeGreaterThan(1000);
    }
  });
});
