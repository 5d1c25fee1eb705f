import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Job } from "#db/schema";
import { ConfigError, parseConfig } from "~/config.server";
import { db } from "~/db.server";
import { queueEmail } from "~/domain/mail/mail.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { enqueue, WORKER_ID } from "~/jobs/queue.server";
import { registerJobHandler, runDueJobs, startWorker, stopWorker } from "~/jobs/worker.server";
import { setEnv } from "../support/ai";
import { signedUpClient, TestClient } from "../support/client";
import { type Account, setPlan } from "../support/org";
import { startMailbox } from "../support/smtp";

/**
 * Background work in lanes (app/jobs/lanes.ts): six webhooks to a receiver
 * that never answers fill the webhook lane, and an e-mail queued after them
 * still goes out at once through the mail lane; a hung job is timed out and
 * its slot freed although its handler ignores the signal; /api/health names
 * the queue whose oldest job waits past its bound, and is ok again once it
 * does not; jobs a crashed process left running are taken back at start-up.
 */

registerBackgroundWork();

/** A webhook receiver that reads each request and never answers. */
async function startHungReceiver() {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server = http.createServer(() => {
    requests++;
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests: () => requests,
    open: () => sockets.size,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let mailbox: Awaited<ReturnType<typeof startMailbox>>;
let receiver: Awaited<ReturnType<typeof startHungReceiver>>;
let owner: Account;
const health = new TestClient();
const jobsOf = (type: string) => db.selectFrom("jobs").selectAll().where("type", "=", type).orderBy("runAt").execute();

beforeAll(async () => {
  mailbox = await startMailbox();
  receiver = await startHungReceiver();
  owner = await signedUpClient({ name: "Lane Owner" });
  await setPlan(owner.organization.id, "pro");
  await runDueJobs({ now: new Date(Date.now() + 1000) }); // what sign-up queued goes to the outbox
  setEnv({
    ALLOW_PRIVATE_WEBHOOK_TARGETS: "true",
    SMTP_URL: mailbox.url,
    JOB_TIMEOUT_SECONDS: "webhooks=4,trackers=0.3",
    HEALTH_QUEUE_LAG_SECONDS: "webhooks=1",
  });
});

afterAll(async () => {
  await stopWorker(0);
  await receiver.close();
  // The timed-out deliveries' own requests end with the receiver: wait until each has recorded its attempt.
  for (let i = 0; i < 150; i++) {
    if ((await db.selectFrom("webhookDeliveries").select("attempts").execute()).every((d) => d.attempts > 0)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await mailbox.close();
  setEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: undefined, SMTP_URL: undefined, JOB_TIMEOUT_SECONDS: undefined, HEALTH_QUEUE_LAG_SECONDS: undefined });
});

describe("lanes", () => {
  it("delivers an e-mail within seconds while six webhooks hang, times the hung ones out, frees their slots, and health names the slow queue", async () => {
    const hook = await owner.client.post("/api/admin/webhooks", { name: "Never answers", url: receiver.url, events: ["project.created"] });
    expect(hook.status, hook.text).toBe(201);
    for (let i = 1; i <= 6; i++) expect((await owner.client.post("/api/projects", { name: `Lane project ${i}` })).status).toBe(201);
    startWorker(100);

    // The webhook lane holds 4 at once (its concurrency); the other 2 wait.
    await expect.poll(receiver.requests, { timeout: 5000 }).toBe(4);
    const hooks = await jobsOf("webhooks.deliver");
    expect(hooks.map((j) => j.status).sort()).toEqual(["queued", "queued", "running", "running", "running", "running"]);
    expect(new Set(hooks.map((j) => j.lane))).toEqual(new Set(["webhooks"]));

    // An e-mail queued behind them goes out at once: the webhooks are still hanging when it arrives.
    await db.transaction().execute((trx) => queueEmail(trx, { to: "reader@example.com", subject: "Not stuck behind webhooks", text: "Hello", kind: "test" }));
    await expect.poll(() => mailbox.received.filter((m) => m.raw.includes("Not stuck behind webhooks")).length, { timeout: 5000 }).toBe(1);
    expect(receiver.requests()).toBe(4);
    expect((await jobsOf("webhooks.deliver")).filter((j) => j.status === "running")).toHaveLength(4);
    await expect.poll(async () => (await jobsOf("email.send")).at(-1), { timeout: 2000 }).toMatchObject({ status: "done", lane: "mail" });

    // Two webhooks have waited past the lane's bound (1 s): degraded, naming the queue, still 200.
    await expect.poll(async () => (await health.get("/api/health")).body.checks.jobs.slow, { timeout: 5000 }).toEqual(["webhooks"]);
    const degraded = await health.get("/api/health");
    expect(degraded.status).toBe(200);
    expect(degraded.body.status).toBe("degraded");
    expect(degraded.body.checks.jobs.status).toBe("unhealthy");
    expect(degraded.body.checks.jobs.queues.webhooks).toMatchObject({ status: "unhealthy", queued: 2, running: 4, maxLagSeconds: 1 });
    expect(degraded.body.checks.jobs.queues.webhooks.lagSeconds).toBeGreaterThanOrEqual(1);
    expect(degraded.body.checks.jobs.queues.mail).toMatchObject({ status: "ok", queued: 0, running: 0 });

    // After 4 s (the lane's timeout) the hung four are failed and retried later; their slots go to the other two
    // although the handler ignored the signal (its own request is still open, the receiver never answered).
    await expect.poll(receiver.requests, { timeout: 5000 }).toBe(6);
    expect(receiver.open()).toBe(6);
    const queued = async () => (await jobsOf("webhooks.deliver")).filter((j) => j.status === "queued");
    await expect.poll(async () => (await queued()).length, { timeout: 2000 }).toBe(4);
    const timedOut = await queued();
    for (const job of timedOut) {
      expect(job).toMatchObject({ attempts: 1, lockedBy: null, lastError: "Timed out after 4 s (the webhooks lane's limit)" });
      // Retried with the queue's backoff (30 s after the first attempt).
      expect(Date.parse(job.runAt) - Date.parse(job.updatedAt)).toBe(30_000);
    }

    // None waits any more (the last two run, the first four wait for their retry): health is ok again.
    const ok = (await health.get("/api/health")).body;
    expect(ok.status).toBe("ok");
    expect(ok.checks.jobs).toMatchObject({ status: "ok", slow: [] });
    expect(ok.checks.jobs.queues.webhooks).toMatchObject({ status: "ok", queued: 0 });
    // And the last two are timed out in turn.
    await expect
      .poll(async () => (await jobsOf("webhooks.deliver")).filter((j) => j.status === "queued" && j.attempts === 1).length, { timeout: 6000 })
      .toBe(6);
    expect((await health.get("/api/health")).body.checks.jobs.queues.webhooks).toMatchObject({ status: "ok", queued: 0, running: 0 });
  });

  it("gives a handler a signal that aborts at its lane's timeout, fails the job and gives it up after its last attempt", async () => {
    let signal: AbortSignal | undefined;
    const gaveUp: Job[] = [];
    registerJobHandler("tracker.test-hangs", {
      run: (_payload, _job, s) => {
        signal = s;
        return new Promise(() => {}); // ignores the signal as well
      },
      onGiveUp: async (_payload, job) => {
        gaveUp.push(job);
      },
    });
    const id = await enqueue(db, "tracker.test-hangs", {}, { maxAttempts: 1 });
    await expect.poll(() => gaveUp.length, { timeout: 5000 }).toBe(1);
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as Error | undefined)?.message).toBe("Timed out after 0.3 s (the trackers lane's limit)");
    const job = await db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ lane: "trackers", status: "failed", attempts: 1, lastError: "Timed out after 0.3 s (the trackers lane's limit)" });
  });

  it("takes back at start-up, at once, the jobs a crashed process left running", async () => {
    await stopWorker(0);
    const ran: string[] = [];
    const gaveUp: string[] = [];
    registerJobHandler("test.crash-survivor", {
      run: async (payload: { tag: string }) => {
        ran.push(payload.tag);
      },
      onGiveUp: async (payload: { tag: string }) => {
        gaveUp.push(payload.tag);
      },
    });
    // Claimed a moment ago by a process that died: the lease is fresh, so waiting for it to go stale would take 5 minutes.
    const crashed = async (tag: string, attempts: number) => {
      const id = await enqueue(db, "test.crash-survivor", { tag }, { maxAttempts: 3 });
      await db
        .updateTable("jobs")
        .set({ status: "running", attempts, lockedAt: new Date().toISOString(), lockedBy: "a-process-that-crashed" })
        .where("id", "=", id)
        .execute();
      return id;
    };
    const retried = await crashed("retried", 1);
    const exhausted = await crashed("on its last attempt", 3);
    expect(WORKER_ID).not.toBe("a-process-that-crashed");

    startWorker(100);
    await expect.poll(() => ran, { timeout: 3000 }).toEqual(["retried"]);
    const row = (id: string) => db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(await row(retried)).toMatchObject({ status: "done", attempts: 2, lockedBy: null });
    expect(await row(exhausted)).toMatchObject({ status: "failed", lastError: "The worker stopped while running this job" });
    expect(gaveUp).toEqual(["on its last attempt"]);
  });

  it("runs two jobs of the same work (same type and payload) one after the other, and other work beside them", async () => {
    const active = new Map<string, number>();
    let mostAtOnce = 0;
    let mostOfOneWork = 0;
    const done: string[] = [];
    registerJobHandler("test.same-work", {
      run: async (payload: { projectId: string; n: number }) => {
        const now = (active.get(payload.projectId) ?? 0) + 1;
        active.set(payload.projectId, now);
        mostOfOneWork = Math.max(mostOfOneWork, now);
        mostAtOnce = Math.max(
          mostAtOnce,
          [...active.values()].reduce((a, b) => a + b, 0),
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        active.set(payload.projectId, now - 1);
        done.push(`${payload.projectId}`);
      },
    });
    // The same payload twice (two refreshes of one project), and another project's.
    await enqueue(db, "test.same-work", { projectId: "p-1" });
    await enqueue(db, "test.same-work", { projectId: "p-1" });
    await enqueue(db, "test.same-work", { projectId: "p-2" });
    await expect.poll(() => done.length, { timeout: 5000 }).toBe(3);
    expect(mostOfOneWork).toBe(1);
    expect(mostAtOnce).toBe(2);
    expect(done.filter((d) => d === "p-1")).toHaveLength(2);
  });

  it("at shutdown waits for the jobs in hand up to its grace, then aborts them and leaves their lease for the next start", async () => {
    let signal: AbortSignal | undefined;
    registerJobHandler("test.outlives-shutdown", {
      run: (_payload, _job, s) => {
        signal = s;
        return new Promise(() => {});
      },
    });
    const id = await enqueue(db, "test.outlives-shutdown", {});
    await expect.poll(() => signal, { timeout: 3000 }).toBeDefined();
    const started = Date.now();
    await stopWorker(300);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((signal?.reason as Error | undefined)?.message).toBe("The server is shutting down");
    // Nothing is recorded for it: the lease stays this process's, for the next start to take back.
    const job = await db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: "running", attempts: 1, lockedBy: WORKER_ID, lastError: null });
    await db.updateTable("jobs").set({ status: "done" }).where("id", "=", id).execute();
    startWorker(100);
  });
});

describe("lane settings", () => {
  it("refuse a wrong lane name or value at start-up, naming the variable", () => {
    const parse = (env: Record<string, string>) => () => parseConfig({ ...process.env, ...env });
    expect(parse({ JOB_CONCURRENCY: "webhooks=lots" })).toThrow(ConfigError);
    expect(parse({ JOB_CONCURRENCY: "webhooks=lots" })).toThrow(/JOB_CONCURRENCY: webhooks needs a whole number from 1 to 64/);
    expect(parse({ JOB_TIMEOUT_SECONDS: "postcards=5" })).toThrow(/JOB_TIMEOUT_SECONDS: unknown name "postcards"/);
    expect(parse({ HEALTH_QUEUE_LAG_SECONDS: "events=0" })).toThrow(/HEALTH_QUEUE_LAG_SECONDS: events needs a whole number from 1/);
    expect(parseConfig({ ...process.env, JOB_CONCURRENCY: " webhooks = 8 , mail=4,", JOB_TIMEOUT_SECONDS: "" })).toMatchObject({
      JOB_CONCURRENCY: { webhooks: 8, mail: 4 },
      JOB_TIMEOUT_SECONDS: {},
    });
  });
});
