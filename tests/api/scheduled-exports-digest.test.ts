import { unzipSync } from "fflate";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { runDueJobs } from "~/jobs/worker.server";
import { setEnv } from "../support/ai";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";
import { type Receiver, startReceiver, verifySignature } from "./webhooks-support";

/**
 * Scheduled exports without a project: a digest of every project the
 * creator can read, delivered as one zip (webhook to a loopback receiver,
 * e-mail to the outbox).
 */

registerBackgroundWork();

const API = "/api/scheduled-exports";
let owner: Account;
let receiver: Receiver;
const ids = { atlas: "", beacon: "", comet: "", dusk: "", secret: "" };

async function project(account: Account, name: string, prd: string | null, status?: string) {
  const res = await account.client.post("/api/projects", { name, ...(status ? { status } : {}) });
  expect(res.status, res.text).toBe(201);
  if (prd !== null) expect((await account.client.post(`/api/projects/${res.body.id}/prd`, { content: prd })).status).toBeLessThan(300);
  return res.body.id as string;
}

const digest = (extra: Record<string, unknown> = {}) => ({
  scheduleType: "weekly_digest",
  format: "markdown",
  timezone: "Europe/Berlin",
  deliveryMethod: "webhook",
  webhookUrl: receiver.url,
  ...extra,
});

async function create(account: Account, body: Record<string, unknown>) {
  const res = await account.client.post(API, body);
  expect(res.status, res.text).toBe(201);
  return res.body.schedule as { id: string; projectId: string | null; webhookSecret?: string };
}

/** Runs the schedule now and returns what the receiver got: the payload and the zip's files. */
async function runNow(account: Account, id: string) {
  const before = receiver.received.length;
  const t = await account.client.post(`${API}/${id}/trigger`);
  expect(t.status, t.text).toBe(202);
  await runDueJobs();
  const logs = (await account.client.get(`${API}/${id}/logs`)).body.logs;
  expect(logs[0].status, logs[0].error).toBe("delivered");
  const got = receiver.received[before]!;
  const body = got.body as unknown as Record<string, any>;
  const files = unzipSync(Buffer.from(body.content, "base64"));
  const text = (name: string) => Buffer.from(files[name]!).toString("utf8");
  return { got, body, names: Object.keys(files).sort(), text };
}

beforeAll(async () => {
  setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: "true" });
  receiver = await startReceiver();
  owner = await signedUpClient({ name: "Olga Owner" });
  await setPlan(owner.organization.id, "pro");
  ids.atlas = await project(owner, "Atlas", "# Goals\nShip the Atlas beta.\n");
  ids.beacon = await project(owner, "Beacon", "# Goals\nLight the way.\n");
  ids.comet = await project(owner, "Comet", null);
  ids.dusk = await project(owner, "Dusk", "# Old\nRetired.\n", "ARCHIVED");
  const stranger = await signedUpClient({ name: "Sam Stranger" });
  await setPlan(stranger.organization.id, "pro");
  ids.secret = await project(stranger, "Secret Plan", "# Secret\nDo not leak.\n");
});
afterAll(async () => {
  setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: undefined });
  await receiver.close();
});
beforeEach(async () => {
  await db.deleteFrom("scheduledExports").execute();
  await db.deleteFrom("jobs").execute();
});

describe("creating a digest", () => {
  it("needs no projectId (absent, null or empty): projectId null, listed and read back", async () => {
    const s = await create(owner, digest());
    expect(s).toMatchObject({ projectId: null, projectName: null, scheduleType: "weekly", format: "markdown", deliveryMethod: "webhook" });
    expect(s.webhookSecret).toMatch(/^whsec_/);
    expect((await create(owner, digest({ projectId: null }))).projectId).toBeNull();
    expect((await create(owner, digest({ projectId: "" }))).projectId).toBeNull();
    const list = (await owner.client.get(API)).body.schedules;
    expect(list.map((x: { id: string }) => x.id)).toContain(s.id);
    expect((await owner.client.get(`${API}/${s.id}`)).body.schedule.projectId).toBeNull();
    // Filtering by a project leaves digests out.
    expect((await owner.client.get(`${API}?projectId=${ids.atlas}`)).body.schedules).toEqual([]);
  });

  it("refuses a status-change digest (it follows one project)", async () => {
    const res = await owner.client.post(API, digest({ scheduleType: "on_status_change", triggerStatus: "APPROVED" }));
    expectError(res, 400, "VALIDATION_ERROR");
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(["projectId"]);
  });

  it("a PATCH turns a project schedule into a digest and back", async () => {
    const s = await create(owner, digest({ projectId: ids.atlas }));
    const all = await owner.client.patch(`${API}/${s.id}`, { projectId: null });
    expect(all.status, all.text).toBe(200);
    expect(all.body.schedule.projectId).toBeNull();
    const one = await owner.client.patch(`${API}/${s.id}`, { projectId: ids.beacon });
    expect(one.body.schedule).toMatchObject({ projectId: ids.beacon, projectName: "Beacon" });
  });
});

describe("running a digest", () => {
  it("delivers one zip with every readable project's PRD; archived, empty and other organizations' projects are not in it", async () => {
    const s = await create(owner, digest());
    const { got, body, names, text } = await runNow(owner, s.id);
    expect(verifySignature(s.webhookSecret!, got.raw, got.headers["x-webhook-signature"])).toBe(true);
    expect(body).toMatchObject({ event: "export.scheduled", scope: "organization", projectId: null, format: "markdown", contentType: "application/zip" });
    expect(body.filename).toMatch(/^prd-digest-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(names).toEqual(["Atlas.md", "Beacon.md", "README.txt"]);
    expect(text("Atlas.md")).toContain("Ship the Atlas beta.");
    const readme = text("README.txt");
    expect(readme).toContain(`PRD Studio digest: ${owner.organization.name}`);
    expect(readme).toMatch(/- Atlas \(Draft, updated \d{4}-\d{2}-\d{2}\): Atlas\.md\./);
    expect(readme).toMatch(/- Comet \(Draft, updated [^)]+\): No PRD yet\./);
    expect(readme).not.toContain("Dusk");
    expect(readme).not.toContain("Secret");
    expect(body.projects.map((p: { projectName: string }) => p.projectName).sort()).toEqual(["Atlas", "Beacon", "Comet"]);
    expect(JSON.stringify(body)).not.toContain(ids.secret);
  });

  it("renders each PRD in the schedule's format (PDF here)", async () => {
    const s = await create(owner, digest({ format: "pdf" }));
    const { names, body } = await runNow(owner, s.id);
    expect(names).toEqual(["Atlas.pdf", "Beacon.pdf", "README.txt"]);
    const files = unzipSync(Buffer.from(body.content, "base64"));
    expect(Buffer.from(files["Atlas.pdf"]!.slice(0, 5)).toString()).toBe("%PDF-");
  });

  it("with includeChangelog: each project's changes since the last delivery; a project new to the digest says so", async () => {
    const s = await create(owner, digest({ includeChangelog: true }));
    const first = await runNow(owner, s.id);
    expect(first.body.projects.find((p: { projectId: string }) => p.projectId === ids.atlas).changelog.firstDelivery).toBe(true);
    expect((await owner.client.post(`/api/projects/${ids.atlas}/prd`, { content: "# Goals\nShip the Atlas GA.\n\n# Risks\nNone.\n" })).status).toBeLessThan(
      300,
    );
    const eon = await project(owner, "Eon", "# Goals\nNew.\n");
    await db.updateTable("scheduledExportRuns").set({ status: "done" }).where("scheduleId", "=", s.id).execute();
    const second = await runNow(owner, s.id);
    const byId = (id: string) => second.body.projects.find((p: { projectId: string }) => p.projectId === id);
    expect(byId(ids.atlas).changelog).toMatchObject({ firstDelivery: false, sectionsChanged: ["Goals"], sectionsAdded: ["Risks"] });
    expect(byId(ids.beacon).changelog).toMatchObject({ unchanged: true });
    expect(byId(eon).changelog.firstDelivery).toBe(true);
    const readme = second.text("README.txt");
    expect(readme).toMatch(/- Eon \([^)]+\): Eon\.md\. New in this digest\./);
    expect(readme).toMatch(/- Atlas \([^)]+\): Atlas\.md\. Changes since the last delivery: 1 section changed \(Goals\); 1 added \(Risks\)/);
    await db.deleteFrom("projects").where("id", "=", eon).execute();
  });

  it("by e-mail: one message per recipient with the zip attached, a digest subject and a line per project", async () => {
    const s = await create(owner, digest({ deliveryMethod: "email", webhookUrl: undefined, recipients: ["team@example.com"] }));
    expect((await owner.client.post(`${API}/${s.id}/trigger`)).status).toBe(202);
    await runDueJobs();
    const mail = await db
      .selectFrom("emails")
      .selectAll()
      .where("toAddress", "=", "team@example.com")
      .where("kind", "=", "scheduled_export")
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe(`Weekly PRD digest: ${owner.organization.name}`);
    expect(mail.text).toContain(`The PRDs of ${owner.organization.name}: 2 of 3 projects attached as one zip.`);
    expect(mail.text).toMatch(/- Beacon \(Draft, updated [^)]+\): Beacon\.md\./);
    expect(mail.text).not.toContain("Secret");
    expect(JSON.parse(mail.attachments!).map((a: { filename: string }) => a.filename)).toEqual([expect.stringMatching(/^prd-digest-.*\.zip$/)]);
  });
});

describe("who gets what", () => {
  it("a member's digest follows what they can read: demoted to viewer, only the project shared with them", async () => {
    const member = await joinOrg(owner.organization.id, "member", "Mia Member");
    const s = await create(member, digest());
    expect((await runNow(owner, s.id)).names).toEqual(["Atlas.md", "Beacon.md", "README.txt"]);

    await db.updateTable("memberships").set({ role: "viewer" }).where("userId", "=", member.user.id).where("orgId", "=", owner.organization.id).execute();
    const shared = await owner.client.post(`/api/projects/${ids.beacon}/collaborators`, { email: member.email, role: "viewer" });
    expect(shared.status, shared.text).toBeLessThan(300);
    await db.updateTable("scheduledExportRuns").set({ status: "done" }).where("scheduleId", "=", s.id).execute();
    const after = await runNow(owner, s.id);
    expect(after.names).toEqual(["Beacon.md", "README.txt"]);
    expect(after.text("README.txt")).not.toContain("Atlas");
    // Viewers do not see digests at all.
    expect((await member.client.get(API)).body.schedules).toEqual([]);
    expectError(await member.client.get(`${API}/${s.id}`), 404, "NOT_FOUND");

    // Its creator leaves the organization: the run fails at once, naming why.
    await db.deleteFrom("memberships").where("userId", "=", member.user.id).where("orgId", "=", owner.organization.id).execute();
    await db.updateTable("scheduledExportRuns").set({ status: "done" }).where("scheduleId", "=", s.id).execute();
    expect((await owner.client.post(`${API}/${s.id}/trigger`)).status).toBe(202);
    await runDueJobs();
    const [log] = (await owner.client.get(`${API}/${s.id}/logs`)).body.logs;
    expect(log.status).toBe("failed");
    expect(log.error).toMatch(/no longer a member/);
  });

  it("owners, admins and the creator manage a digest; other members read it; viewers cannot create one", async () => {
    const creator = await joinOrg(owner.organization.id, "member", "Cole Creator");
    const colleague = await joinOrg(owner.organization.id, "member", "Kim Colleague");
    const admin = await joinOrg(owner.organization.id, "admin", "Ada Admin");
    const viewer = await joinOrg(owner.organization.id, "viewer", "Vic Viewer");
    const s = await create(creator, digest());
    expect((await colleague.client.get(`${API}/${s.id}`)).status).toBe(200);
    expectError(await colleague.client.patch(`${API}/${s.id}`, { isActive: false }), 403, "FORBIDDEN");
    expectError(await colleague.client.post(`${API}/${s.id}/trigger`), 403, "FORBIDDEN");
    expectError(await colleague.client.delete(`${API}/${s.id}`), 403, "FORBIDDEN");
    expect((await creator.client.patch(`${API}/${s.id}`, { format: "html" })).status).toBe(200);
    expect((await admin.client.patch(`${API}/${s.id}`, { isActive: false })).status).toBe(200);
    expectError(await viewer.client.post(API, digest()), 403, "FORBIDDEN");
    // A member may not turn someone else's project schedule into a digest they do not own.
    const ownerSchedule = await create(owner, digest({ projectId: ids.atlas }));
    await db.updateTable("projects").set({ assignedToId: colleague.user.id }).where("id", "=", ids.atlas).execute();
    expectError(await colleague.client.patch(`${API}/${ownerSchedule.id}`, { projectId: null }), 403, "FORBIDDEN");
    await db.updateTable("projects").set({ assignedToId: null }).where("id", "=", ids.atlas).execute();
    expect((await owner.client.delete(`${API}/${s.id}`)).status).toBe(200);
  });

  it("another organization never sees or runs a digest", async () => {
    const s = await create(owner, digest());
    const other = await signedUpClient();
    await setPlan(other.organization.id, "pro");
    expectError(await other.client.get(`${API}/${s.id}`), 404, "NOT_FOUND");
    expectError(await other.client.post(`${API}/${s.id}/trigger`), 404, "NOT_FOUND");
    expect((await other.client.get(API)).body.schedules).toEqual([]);
    // Their own digest holds only their projects.
    const mine = await create(other, digest());
    const { names } = await runNow(other, mine.id);
    expect(names).toEqual(["README.txt"]);
  });
});

describe("the OpenAPI document", () => {
  it("lists the enums of scheduleType, format and deliveryMethod and leaves projectId optional", async () => {
    const doc = (await owner.client.get("/api/openapi.json")).body;
    for (const [method, path] of [
      ["post", API],
      ["patch", `${API}/{exportId}`],
    ] as const) {
      const schema = doc.paths[path][method].requestBody.content["application/json"].schema;
      expect(schema.properties.scheduleType.enum).toEqual(["weekly", "weekly_digest", "on_status_change", "cron", "custom_cron", "one_time"]);
      expect(schema.properties.format.enum).toEqual(["pdf", "html", "docx", "markdown"]);
      expect(schema.properties.deliveryMethod.enum).toEqual(["email", "webhook"]);
      expect(schema.required ?? []).not.toContain("projectId");
    }
  });
});
