import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { db } from "~/db.server";
import { runDueJobs } from "~/jobs/worker.server";
import { drainEvents } from "~/domain/events/dispatch.server";
import { setEnv } from "../support/ai";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";
import { type Receiver, startReceiver, verifySignature } from "./webhooks-support";

registerBackgroundWork();

const HOOKS = "/api/admin/webhooks";
const HOUR = 3600_000;
let clock = Date.now();
/** Runs the worker "later": far enough ahead that every backoff has passed. */
const later = () => runDueJobs({ now: new Date((clock += 2 * HOUR)) });

let receiver: Receiver;
let owner: Account;

beforeAll(async () => {
  receiver = await startReceiver();
  owner = await signedUpClient({ name: "Wanda Owner" });
  await setPlan(owner.organization.id, "pro");
});
afterAll(() => receiver.close());
afterEach(() => {
  setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: undefined });
  receiver.received.length = 0;
  receiver.respond = () => 200;
});

const allowPrivate = () => setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: "true" });

async function createHook(account: Account, body: Record<string, unknown> = {}) {
  const res = await account.client.post(HOOKS, { name: "Receiver", url: receiver.url, events: ["*"], ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.webhook as { id: string; secret: string; events: string[]; isActive: boolean; secretHint: string };
}

const deliveries = async (account: Account, id: string) => {
  const res = await account.client.get(`${HOOKS}/${id}/deliveries`);
  expect(res.status, res.text).toBe(200);
  return res.body.deliveries as { id: string; event: string; status: string; attempts: number; responseStatus: number | null; error: string | null }[];
};

describe("delivery", () => {
  it("signs, retries failures with the same x-webhook-id, then delivers project.created", async () => {
    allowPrivate();
    const hook = await createHook(owner, { events: ["project.*"], secret: undefined });
    expect(hook.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const stored = await db.selectFrom("webhooks").select("secretEncrypted").where("id", "=", hook.id).executeTakeFirstOrThrow();
    expect(stored.secretEncrypted).not.toContain(hook.secret);
    expect((await owner.client.get(`${HOOKS}/${hook.id}`)).body.webhook).not.toHaveProperty("secret");

    receiver.respond = (n) => (n < 2 ? 500 : 200);
    const project = await owner.client.post("/api/projects", { name: "Hooked project" });
    expect(project.status).toBe(201);

    await runDueJobs();
    let [delivery] = await deliveries(owner, hook.id);
    expect(delivery).toMatchObject({ event: "project.created", status: "pending", attempts: 1, responseStatus: 500 });
    expect(delivery!.error).toContain("HTTP 500");
    await later();
    await later();
    [delivery] = await deliveries(owner, hook.id);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 3, responseStatus: 200, error: null });

    const got = receiver.received.filter((r) => r.body.event === "project.created");
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers["x-webhook-id"]))).toEqual(new Set([delivery!.id]));
    for (const r of got) {
      expect(verifySignature(hook.secret, r.raw, r.headers["x-webhook-signature"])).toBe(true);
      expect(verifySignature("wrong-secret-0000000", r.raw, r.headers["x-webhook-signature"])).toBe(false);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.headers["x-webhook-event"]).toBe("project.created");
      expect(r.headers["x-webhook-timestamp"]).toBe(r.body.timestamp);
    }
    expect(got[0]!.body).toEqual({
      event: "project.created",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: expect.objectContaining({ projectId: project.body.id, name: "Hooked project", status: "DRAFT" }),
    });
    const after = (await owner.client.get(`${HOOKS}/${hook.id}`)).body.webhook;
    expect(after).toMatchObject({ consecutiveFailures: 0, lastDeliveryAt: expect.any(String) });
    await owner.client.delete(`${HOOKS}/${hook.id}`);
  });

  it("only delivers subscribed events, with a custom signature header", async () => {
    allowPrivate();
    const hook = await createHook(owner, { events: ["prd.updated"], signatureHeaderName: "X-Signature", secret: "a-shared-secret-1234" });
    await owner.client.post("/api/projects", { name: "Not subscribed" });
    await runDueJobs();
    expect(receiver.received).toHaveLength(0);
    await owner.client.post(`${HOOKS}/${hook.id}/test`);
    await runDueJobs();
    expect(receiver.received).toHaveLength(1);
    expect(verifySignature("a-shared-secret-1234", receiver.received[0]!.raw, receiver.received[0]!.headers["x-signature"])).toBe(true);
    await owner.client.delete(`${HOOKS}/${hook.id}`);
  });

  it("the test route queues webhook.test for that webhook only (202)", async () => {
    allowPrivate();
    const a = await createHook(owner, { name: "A" });
    const b = await createHook(owner, { name: "B" });
    const res = await owner.client.post(`${HOOKS}/${a.id}/test`);
    expect(res.status, res.text).toBe(202);
    expect(res.body.delivery).toMatchObject({ event: "webhook.test", status: "pending", attempts: 0, webhookId: a.id });
    await runDueJobs();
    expect(receiver.received.map((r) => r.body.event)).toEqual(["webhook.test"]);
    expect(receiver.received[0]!.body.data).toMatchObject({ webhookId: a.id });
    expect((await deliveries(owner, a.id))[0]).toMatchObject({ status: "delivered", responseStatus: 200 });
    expect(await deliveries(owner, b.id)).toEqual([]);
    await owner.client.delete(`${HOOKS}/${a.id}`);
    await owner.client.delete(`${HOOKS}/${b.id}`);
  });

  it("a queued delivery survives a worker that died mid-run, and fan-out is idempotent", async () => {
    allowPrivate();
    const hook = await createHook(owner);
    const project = await owner.client.post("/api/projects", { name: "Restart" });
    const event = await db
      .selectFrom("events")
      .select("id")
      .where("name", "=", "project.created")
      .where("data", "like", `%${project.body.id}%`)
      .executeTakeFirstOrThrow();
    // Only the fan-out runs: the delivery row and its job are now persisted, nothing is held in memory.
    await drainEvents();
    const [pending] = await deliveries(owner, hook.id);
    expect(pending).toMatchObject({ event: "project.created", status: "pending", attempts: 0 });
    // The worker claims the job and the process dies before it finishes.
    await db
      .updateTable("jobs")
      .set({ status: "running", attempts: 1, lockedAt: new Date(Date.now() - 10 * 60_000).toISOString() })
      .where("type", "=", "webhooks.deliver")
      .where("payload", "like", `%${pending!.id}%`)
      .execute();
    await runDueJobs(); // the restarted worker
    expect((await deliveries(owner, hook.id))[0]).toMatchObject({ id: pending!.id, status: "delivered" });
    expect(receiver.received.filter((r) => r.headers["x-webhook-id"] === pending!.id)).toHaveLength(1);
    // The same event dispatched again does not create a second delivery.
    await db.updateTable("events").set({ processedAt: null }).where("id", "=", event.id).execute();
    await runDueJobs();
    expect((await deliveries(owner, hook.id)).filter((d) => d.event === "project.created")).toHaveLength(1);
    await owner.client.delete(`${HOOKS}/${hook.id}`);
  });

  it("gives up after 6 attempts, and 10 failed deliveries in a row switch the webhook off and notify admins", async () => {
    allowPrivate();
    const admin = await joinOrg(owner.organization.id, "admin", "Ada Admin");
    const member = await joinOrg(owner.organization.id, "member", "Mo Member");
    const hook = await createHook(owner);
    await db.updateTable("webhooks").set({ consecutiveFailures: 9 }).where("id", "=", hook.id).execute();
    receiver.respond = () => 500;
    await owner.client.post(`${HOOKS}/${hook.id}/test`);
    await runDueJobs();
    for (let i = 0; i < 6; i++) await later();
    expect(receiver.received).toHaveLength(6);
    const [failed] = await deliveries(owner, hook.id);
    expect(failed).toMatchObject({ status: "failed", attempts: 6, responseStatus: 500 });
    const off = (await owner.client.get(`${HOOKS}/${hook.id}`)).body.webhook;
    expect(off).toMatchObject({ isActive: false, consecutiveFailures: 10, disabledReason: expect.stringContaining("10 failed deliveries") });
    const notes = await db.selectFrom("notifications").select(["userId", "type", "link"]).where("type", "=", "webhook_disabled").execute();
    expect(notes.map((n) => n.userId).sort()).toEqual([owner.user.id, admin.user.id].sort());
    expect(notes.map((n) => n.userId)).not.toContain(member.user.id);
    expect(notes[0]!.link).toBe(`/settings/webhooks/${hook.id}`);
    // A switched-off webhook receives no events.
    receiver.received.length = 0;
    await owner.client.post("/api/projects", { name: "While off" });
    await runDueJobs();
    expect(receiver.received).toHaveLength(0);
    // Switching it on again starts a fresh count.
    const on = await owner.client.patch(`${HOOKS}/${hook.id}`, { isActive: true });
    expect(on.body.webhook).toMatchObject({ isActive: true, consecutiveFailures: 0, disabledReason: null });
    await owner.client.delete(`${HOOKS}/${hook.id}`);
  });
});

describe("private targets", () => {
  it.each(["http://127.0.0.1:9/x", "http://localhost:3000/x", "http://[::1]/x", "http://10.1.2.3/x", "http://169.254.169.254/latest"])(
    "refuses %s at creation without ALLOW_PRIVATE_WEBHOOK_TARGETS",
    async (url) => {
      const res = await owner.client.post(HOOKS, { name: "x", url, events: ["*"] });
      expectError(res, 400, "VALIDATION_ERROR");
      expect(res.body.details[0].path).toBe("url");
    },
  );

  it("refuses at delivery time when the name resolves to loopback (DNS checked on every send)", async () => {
    allowPrivate();
    const hook = await createHook(owner, { url: `http://localhost:${receiver.port}/hook` });
    setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: undefined });
    expect((await owner.client.post(`${HOOKS}/${hook.id}/test`)).status).toBe(202);
    await runDueJobs();
    const [d] = await deliveries(owner, hook.id);
    expect(d).toMatchObject({ status: "failed", attempts: 1, responseStatus: null });
    expect(d!.error).toMatch(/Refused: localhost resolves to a private or reserved address/);
    expect(receiver.received).toHaveLength(0);
    // A change of URL to a literal private address is refused too.
    expectError(await owner.client.patch(`${HOOKS}/${hook.id}`, { url: "http://192.168.1.10/" }), 400, "VALIDATION_ERROR");
    await owner.client.delete(`${HOOKS}/${hook.id}`);
  });
});

describe("management API", () => {
  it("validates events, url and header name", async () => {
    const bad = await owner.client.post(HOOKS, { name: "x", url: "https://hooks.example.com/a", events: ["project.created", "project.exploded"] });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.details).toEqual([expect.objectContaining({ path: "events.1" })]);
    const group = await owner.client.post(HOOKS, { name: "x", url: "https://hooks.example.com/a", events: ["nothing.*"] });
    expect(group.body.details[0].path).toBe("events.0");
    expectError(await owner.client.post(HOOKS, { name: "x", url: "https://hooks.example.com/a", events: [] }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post(HOOKS, { name: "x", url: "ftp://hooks.example.com/a", events: ["*"] }), 400, "VALIDATION_ERROR");
    const header = await owner.client.post(HOOKS, { name: "x", url: "https://hooks.example.com/a", events: ["*"], signatureHeaderName: "bad header:" });
    expect(header.body.details[0].path).toBe("signatureHeaderName");
  });

  it("creates with defaults, reads, updates and deletes", async () => {
    const created = await owner.client.post(HOOKS, { name: "CRM", url: "https://hooks.example.com/a", events: ["project.*", "prd.generated"] });
    expect(created.status).toBe(201);
    expect(created.body.webhook).toMatchObject({ isActive: true, signatureHeaderName: "x-webhook-signature", events: ["project.*", "prd.generated"] });
    const id = created.body.webhook.id;
    const secret = created.body.webhook.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(created.body.webhook.secretHint).toBe(`whsec_…${secret.slice(-4)}`);
    const chosen = await owner.client.post(HOOKS, { name: "Own secret", url: "https://hooks.example.com/b", events: ["*"], secret: "my-own-long-secret-1234" });
    expect(chosen.body.webhook.secretHint).toBe("…1234");
    await owner.client.delete(`${HOOKS}/${chosen.body.webhook.id}`);
    expect((await owner.client.get(HOOKS)).body.webhooks.map((w: { id: string }) => w.id)).toContain(id);
    const patched = await owner.client.patch(`${HOOKS}/${id}`, { name: "CRM 2", isActive: false, events: ["*"] });
    expect(patched.status).toBe(200);
    expect(patched.body.webhook).toMatchObject({ name: "CRM 2", isActive: false, events: ["*"] });
    expect((await owner.client.delete(`${HOOKS}/${id}`)).body).toEqual({ success: true });
    expectError(await owner.client.get(`${HOOKS}/${id}`), 404, "NOT_FOUND");
  });

  it("enforces plan limits: Free none, Starter 2", async () => {
    const free = await signedUpClient();
    const res = await free.client.post(HOOKS, { name: "x", url: "https://hooks.example.com/a", events: ["*"] });
    expectError(res, 403, "LIMIT_REACHED");
    expect(res.body.metric).toBe("webhooks");
    await setPlan(free.organization.id, "starter");
    for (const n of [1, 2]) {
      expect((await free.client.post(HOOKS, { name: `h${n}`, url: "https://hooks.example.com/a", events: ["*"] })).status).toBe(201);
    }
    expectError(await free.client.post(HOOKS, { name: "h3", url: "https://hooks.example.com/a", events: ["*"] }), 403, "LIMIT_REACHED");
  });

  it("is for owners and admins only; another organization's webhook is 404", async () => {
    const hook = (await owner.client.post(HOOKS, { name: "Mine", url: "https://hooks.example.com/a", events: ["*"] })).body.webhook;
    for (const role of ["member", "viewer"] as const) {
      const other = await joinOrg(owner.organization.id, role, `A ${role}`);
      expectError(await other.client.get(HOOKS), 403, "FORBIDDEN");
      expectError(await other.client.post(HOOKS, { name: "x", url: "https://hooks.example.com/a", events: ["*"] }), 403, "FORBIDDEN");
      expectError(await other.client.get(`${HOOKS}/${hook.id}/deliveries`), 403, "FORBIDDEN");
    }
    const stranger = await signedUpClient();
    await setPlan(stranger.organization.id, "pro");
    expectError(await stranger.client.get(`${HOOKS}/${hook.id}`), 404, "NOT_FOUND");
    expectError(await stranger.client.patch(`${HOOKS}/${hook.id}`, { name: "stolen" }), 404, "NOT_FOUND");
    expectError(await stranger.client.delete(`${HOOKS}/${hook.id}`), 404, "NOT_FOUND");
    expectError(await stranger.client.post(`${HOOKS}/${hook.id}/test`), 404, "NOT_FOUND");
    expectError(await stranger.client.get(`${HOOKS}/${hook.id}/deliveries`), 404, "NOT_FOUND");
    expect((await stranger.client.get(HOOKS)).body.webhooks).toEqual([]);
  });

  it("is described in the OpenAPI document", async () => {
    const doc = (await owner.client.get("/api/openapi.json")).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([HOOKS, `${HOOKS}/{webhookId}`, `${HOOKS}/{webhookId}/test`, `${HOOKS}/{webhookId}/deliveries`]),
    );
  });
});

describe("a receiver that never answers", () => {
  it("is cut off at the delivery timeout and recorded as a timed-out attempt", async () => {
    const { post } = await import("~/domain/webhooks/delivery.server");
    const http = await import("node:http");
    const hanging = http.createServer(() => {
      /* never responds */
    });
    await new Promise<void>((r) => hanging.listen(0, "127.0.0.1", r));
    allowPrivate();
    try {
      const { port } = hanging.address() as { port: number };
      const attempt = await post(`http://127.0.0.1:${port}/hook`, { "Content-Type": "application/json" }, "{}", 300);
      expect(attempt.status).toBeNull();
      expect(attempt.error).toBe("Timed out after 0.3 s");
      expect(attempt.durationMs).toBeGreaterThanOrEqual(250);
    } finally {
      setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: undefined });
      hanging.closeAllConnections();
      await new Promise<void>((r) => hanging.close(() => r()));
    }
  });
});
