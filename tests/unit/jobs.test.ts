import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "~/db.server";
import { eventMatches, EVENT_NAMES } from "~/domain/events/catalogue";
import { dispatchEventSlice, drainEvents, MAX_ATTEMPTS, yieldToLoop } from "~/domain/events/dispatch.server";
import { emit, onEvent, type DomainEvent } from "~/domain/events/events.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { backoffMs, claimNextJob, completeJob, enqueue, failJob } from "~/jobs/queue.server";
import { registerJobHandler, runDueJobs } from "~/jobs/worker.server";

registerBackgroundWork();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function jobRow(id: string) {
  return db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** A point safely after every job enqueued "now" by the test so far. */
function later(ms = 1000) {
  return new Date(Date.now() + ms);
}

beforeEach(async () => {
  await db.deleteFrom("jobs").execute();
  await db.deleteFrom("events").execute();
});

describe("backoffMs", () => {
  it("starts at 30 s and doubles with each attempt", () => {
    expect(backoffMs(1)).toBe(30_000);
    expect(backoffMs(2)).toBe(60_000);
    expect(backoffMs(3)).toBe(120_000);
    expect(backoffMs(4)).toBe(240_000);
    expect(backoffMs(5)).toBe(480_000);
    for (let attempt = 1; attempt < 7; attempt++) {
      expect(backoffMs(attempt + 1)).toBe(backoffMs(attempt) * 2);
    }
  });

  it("is capped at one hour", () => {
    expect(backoffMs(7)).toBe(1_920_000); // 32 min, still under the cap
    expect(backoffMs(8)).toBe(HOUR); // 64 min would exceed it
    expect(backoffMs(20)).toBe(HOUR);
    expect(backoffMs(1000)).toBe(HOUR);
  });
});

describe("queue: enqueue / claim / complete / fail", () => {
  it("enqueue persists a queued job with defaults", async () => {
    const id = await enqueue(db, "test.noop", { a: 1 });
    const job = await jobRow(id);
    expect(job.type).toBe("test.noop");
    expect(JSON.parse(job.payload)).toEqual({ a: 1 });
    expect(job.status).toBe("queued");
    expect(job.attempts).toBe(0);
    expect(job.maxAttempts).toBe(6);
    expect(job.lockedAt).toBeNull();
    expect(job.lastError).toBeNull();
  });

  it("a job is not claimed before its runAt, then claimed once and locked", async () => {
    const runAt = new Date(Date.now() + 10 * MINUTE);
    const id = await enqueue(db, "test.noop", {}, { runAt, maxAttempts: 3 });
    expect((await jobRow(id)).runAt).toBe(runAt.toISOString());
    expect((await jobRow(id)).maxAttempts).toBe(3);

    expect(await claimNextJob(new Date(runAt.getTime() - 1))).toBeUndefined();

    const claimed = await claimNextJob(runAt);
    expect(claimed?.id).toBe(id);
    expect(claimed?.status).toBe("running");
    expect(claimed?.attempts).toBe(1);
    expect(claimed?.lockedAt).toBe(runAt.toISOString());

    // A running job with a fresh lock is not handed out again.
    expect(await claimNextJob(new Date(runAt.getTime() + MINUTE))).toBeUndefined();

    await completeJob(id);
    const done = await jobRow(id);
    expect(done.status).toBe("done");
    expect(done.lockedAt).toBeNull();
    expect(await claimNextJob(new Date(runAt.getTime() + HOUR))).toBeUndefined();
  });

  it("claims the job that has been due longest first", async () => {
    const base = Date.now();
    const second = await enqueue(db, "test.noop", { n: 2 }, { runAt: new Date(base - 1000) });
    const first = await enqueue(db, "test.noop", { n: 1 }, { runAt: new Date(base - 5000) });
    const now = new Date(base);
    expect((await claimNextJob(now))?.id).toBe(first);
    expect((await claimNextJob(now))?.id).toBe(second);
    expect(await claimNextJob(now)).toBeUndefined();
  });

  it("failJob re-queues with backoff while attempts remain, then marks the job failed", async () => {
    const id = await enqueue(db, "test.noop", {}, { maxAttempts: 2 });
    const t1 = later();
    const first = (await claimNextJob(t1))!;
    expect(first.id).toBe(id);
    expect(await failJob(first, new Error("boom 1"), t1)).toBe(true);
    let job = await jobRow(id);
    expect(job.status).toBe("queued");
    expect(job.lockedAt).toBeNull();
    expect(job.lastError).toBe("boom 1");
    expect(job.runAt).toBe(new Date(t1.getTime() + backoffMs(1)).toISOString());

    const t2 = new Date(job.runAt);
    const second = (await claimNextJob(t2))!;
    expect(second.id).toBe(id);
    expect(second.attempts).toBe(2);
    expect(await failJob(second, "boom 2", t2)).toBe(false);
    job = await jobRow(id);
    expect(job.status).toBe("failed");
    expect(job.lockedAt).toBeNull();
    expect(job.lastError).toBe("boom 2");
    expect(await claimNextJob(new Date(t2.getTime() + 10 * HOUR))).toBeUndefined();
  });

  it("a job stuck in running with a lock older than 5 minutes is reclaimed", async () => {
    const now = later();
    const fresh = await enqueue(db, "test.noop", {});
    const stale = await enqueue(db, "test.noop", {});
    await db
      .updateTable("jobs")
      .set({ status: "running", attempts: 1, lockedAt: new Date(now.getTime() - 4 * MINUTE).toISOString() })
      .where("id", "=", fresh)
      .execute();
    await db
      .updateTable("jobs")
      .set({ status: "running", attempts: 1, lockedAt: new Date(now.getTime() - 6 * MINUTE).toISOString() })
      .where("id", "=", stale)
      .execute();

    const reclaimed = await claimNextJob(now);
    expect(reclaimed?.id).toBe(stale);
    expect(reclaimed?.status).toBe("running");
    expect(reclaimed?.attempts).toBe(2);
    expect(reclaimed?.lockedAt).toBe(now.toISOString());

    // The one locked 4 minutes ago is still considered in flight.
    expect(await claimNextJob(now)).toBeUndefined();
    // ...until its lock, too, is older than 5 minutes.
    const muchLater = new Date(now.getTime() + 2 * MINUTE);
    expect((await claimNextJob(muchLater))?.id).toBe(fresh);
  });

  it("a job that kills its worker on every attempt is claimed at most maxAttempts times, then fails", async () => {
    const id = await enqueue(db, "test.crashes-worker", {}, { maxAttempts: 3 });
    // Each claim is followed by the worker dying: neither completeJob nor failJob is ever called.
    let now = later();
    let claims = 0;
    for (let i = 0; i < 10; i++) {
      const job = await claimNextJob(now);
      if (job) {
        expect(job.id).toBe(id);
        claims++;
      }
      now = new Date(now.getTime() + 6 * MINUTE); // past the stale-lock threshold
    }
    expect(claims).toBe(3);
    const job = await jobRow(id);
    expect(job.attempts).toBe(3);

    // The exhausted job does not stay "running" forever: the worker gives it up.
    await runDueJobs({ now: new Date(now.getTime() + HOUR) });
    expect((await jobRow(id)).status).toBe("failed");
  });

  it("runDueJobs runs a reclaimed stale job to completion", async () => {
    const ran: string[] = [];
    registerJobHandler("test.reclaim", {
      async run(payload: { tag: string }) {
        ran.push(payload.tag);
      },
    });
    const now = later();
    const id = await enqueue(db, "test.reclaim", { tag: "stale-one" });
    await db
      .updateTable("jobs")
      .set({ status: "running", attempts: 1, lockedAt: new Date(now.getTime() - 10 * MINUTE).toISOString() })
      .where("id", "=", id)
      .execute();

    expect(await runDueJobs({ now })).toBe(1);
    expect(ran).toEqual(["stale-one"]);
    const job = await jobRow(id);
    expect(job.status).toBe("done");
    expect(job.attempts).toBe(2);
  });
});

describe("worker: runDueJobs", () => {
  it("runs a handler with the job's payload and completes the job", async () => {
    const seen: unknown[] = [];
    registerJobHandler("test.ok", {
      async run(payload, job) {
        seen.push({ payload, id: job.id, attempts: job.attempts });
      },
    });
    const id = await enqueue(db, "test.ok", { hello: "world" });
    expect(await runDueJobs({ now: later() })).toBe(1);
    expect(seen).toEqual([{ payload: { hello: "world" }, id, attempts: 1 }]);
    expect((await jobRow(id)).status).toBe("done");
    expect(await runDueJobs({ now: later(HOUR) })).toBe(0);
    expect(seen).toHaveLength(1);
  });

  it("a handler that throws is retried with exponential backoff", async () => {
    let calls = 0;
    registerJobHandler("test.flaky", {
      async run() {
        calls++;
        if (calls < 3) throw new Error(`flaky failure ${calls}`);
      },
    });
    const id = await enqueue(db, "test.flaky", {});

    const t1 = later();
    expect(await runDueJobs({ now: t1 })).toBe(1);
    let job = await jobRow(id);
    expect(job.status).toBe("queued");
    expect(job.attempts).toBe(1);
    expect(job.lastError).toBe("flaky failure 1");
    expect(new Date(job.runAt).getTime()).toBe(t1.getTime() + 30_000);

    // Not due yet.
    expect(await runDueJobs({ now: new Date(t1.getTime() + 29_999) })).toBe(0);
    expect(calls).toBe(1);

    const t2 = new Date(job.runAt);
    expect(await runDueJobs({ now: t2 })).toBe(1);
    job = await jobRow(id);
    expect(job.status).toBe("queued");
    expect(job.attempts).toBe(2);
    expect(job.lastError).toBe("flaky failure 2");
    // The second wait is twice the first.
    expect(new Date(job.runAt).getTime()).toBe(t2.getTime() + 60_000);

    expect(await runDueJobs({ now: new Date(job.runAt) })).toBe(1);
    job = await jobRow(id);
    expect(job.status).toBe("done");
    expect(job.attempts).toBe(3);
    expect(calls).toBe(3);
  });

  it("calls onGiveUp once when the last attempt fails", async () => {
    const gaveUp: unknown[] = [];
    registerJobHandler("test.doomed", {
      async run() {
        throw new Error("always broken");
      },
      async onGiveUp(payload, job, error) {
        gaveUp.push({ payload, attempts: job.attempts, message: (error as Error).message });
      },
    });
    const id = await enqueue(db, "test.doomed", { n: 7 }, { maxAttempts: 3 });
    let now = later();
    for (let i = 1; i <= 3; i++) {
      expect(await runDueJobs({ now })).toBe(1);
      now = new Date(new Date((await jobRow(id)).runAt).getTime() + 1);
      expect(gaveUp).toHaveLength(i === 3 ? 1 : 0);
    }
    expect(gaveUp).toEqual([{ payload: { n: 7 }, attempts: 3, message: "always broken" }]);
    const job = await jobRow(id);
    expect(job.status).toBe("failed");
    expect(job.attempts).toBe(3);
    expect(await runDueJobs({ now: new Date(now.getTime() + 10 * HOUR) })).toBe(0);
  });

  it("a job with no registered handler fails and is retried", async () => {
    const id = await enqueue(db, "test.unregistered", {}, { maxAttempts: 2 });
    const t1 = later();
    expect(await runDueJobs({ now: t1 })).toBe(1);
    let job = await jobRow(id);
    expect(job.status).toBe("queued");
    expect(job.attempts).toBe(1);
    expect(job.lastError).toContain("No handler for job type test.unregistered");
    expect(new Date(job.runAt).getTime()).toBe(t1.getTime() + backoffMs(1));

    // Registered in the meantime (e.g. a deploy): the retry runs it.
    const ran: string[] = [];
    registerJobHandler("test.unregistered", {
      async run() {
        ran.push("ran");
      },
    });
    expect(await runDueJobs({ now: new Date(job.runAt) })).toBe(1);
    job = await jobRow(id);
    expect(job.status).toBe("done");
    expect(ran).toEqual(["ran"]);
  });

  it("a job whose handler never appears ends failed after maxAttempts", async () => {
    const id = await enqueue(db, "test.never-registered", {}, { maxAttempts: 2 });
    const t1 = later();
    expect(await runDueJobs({ now: t1 })).toBe(1);
    expect(await runDueJobs({ now: new Date((await jobRow(id)).runAt) })).toBe(1);
    const job = await jobRow(id);
    expect(job.status).toBe("failed");
    expect(job.attempts).toBe(2);
    expect(job.lastError).toContain("No handler for job type test.never-registered");
  });

  it("respects the limit option", async () => {
    registerJobHandler("test.count", { async run() {} });
    for (let i = 0; i < 3; i++) await enqueue(db, "test.count", { i });
    const now = later();
    expect(await runDueJobs({ now, limit: 2 })).toBe(2);
    expect(await runDueJobs({ now })).toBe(1);
    expect(await runDueJobs({ now })).toBe(0);
  });
});

describe("events", () => {
  const delivered: DomainEvent[] = [];
  let failFor: string | null = null;
  onEvent("test-recorder", async (event, trx) => {
    if (failFor === "*" || failFor === event.id) throw new Error("listener unavailable");
    // Work done through the batch's transaction is rolled back with a failing event.
    await trx
      .insertInto("jobs")
      .values({
        id: `side-${event.id}`,
        type: "test.side-effect",
        payload: "{}",
        status: "done",
        attempts: 0,
        maxAttempts: 1,
        runAt: event.createdAt,
        lockedAt: null,
        lastError: null,
        createdAt: event.createdAt,
        updatedAt: event.createdAt,
      })
      .execute();
    delivered.push(event);
  });

  beforeEach(() => {
    delivered.length = 0;
    failFor = null;
  });

  const emitOne = (name: "project.created" | "comment.created" | "member.added", data: Record<string, unknown>) =>
    db.transaction().execute((trx) => emit(trx, { orgId: null, name, data }));

  it("emit() in a committed transaction records the event, due at once, and no job", async () => {
    const eventId = await db
      .transaction()
      .execute((trx) => emit(trx, { orgId: null, name: "project.created", data: { projectId: "p-1", name: "Atlas" }, actorId: "u-1" }));
    const row = await db.selectFrom("events").selectAll().where("id", "=", eventId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: "project.created", actorId: "u-1", processedAt: null, attempts: 0, failedAt: null, runAt: row.createdAt });
    expect(JSON.parse(row.data)).toEqual({ projectId: "p-1", name: "Atlas" });
    expect(await db.selectFrom("jobs").selectAll().execute()).toEqual([]);
  });

  it("dispatching calls onEvent listeners with the batch's transaction and sets processedAt", async () => {
    const eventId = await emitOne("comment.created", { projectId: "p-2", commentId: "c-9" });
    expect(delivered).toHaveLength(0);
    expect(await drainEvents({ now: later() })).toBe(1);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ id: eventId, orgId: null, name: "comment.created", data: { projectId: "p-2", commentId: "c-9" }, actorId: null });
    const row = await db.selectFrom("events").selectAll().where("id", "=", eventId).executeTakeFirstOrThrow();
    expect(row.processedAt).not.toBeNull();
    // runDueJobs (the worker) dispatches events before it runs jobs.
    await emitOne("member.added", { userId: "u-1" });
    await runDueJobs({ now: later() });
    expect(delivered).toHaveLength(2);
  });

  it("a listener failure rolls back that event's work only, and the event is retried with backoff, then given up", async () => {
    const ok1 = await emitOne("project.created", { n: 1 });
    const bad = await emitOne("member.added", { userId: "u-5" });
    const ok2 = await emitOne("project.created", { n: 2 });
    failFor = bad;
    const t1 = later();
    expect(await dispatchEventSlice(t1, 1_000)).toBe(3);
    expect(delivered.map((e) => e.id)).toEqual([ok1, ok2]);
    const sideEffects = (await db.selectFrom("jobs").select("id").where("type", "=", "test.side-effect").execute()).map((j) => j.id);
    expect(sideEffects.sort()).toEqual([`side-${ok1}`, `side-${ok2}`].sort());
    let row = await db.selectFrom("events").selectAll().where("id", "=", bad).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ processedAt: null, attempts: 1, lastError: "listener unavailable", failedAt: null });
    expect(Date.parse(row.runAt!)).toBe(t1.getTime() + backoffMs(1));
    // Not due before its backoff; due after it.
    expect(await drainEvents({ now: t1 })).toBe(0);
    failFor = null;
    expect(await drainEvents({ now: new Date(row.runAt!) })).toBe(1);
    expect(delivered.map((e) => e.id)).toEqual([ok1, ok2, bad]);

    // An event that keeps failing is given up after MAX_ATTEMPTS, with an error logged once.
    const doomed = await emitOne("member.added", { userId: "u-6" });
    failFor = doomed;
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const next = (await db.selectFrom("events").select("runAt").where("id", "=", doomed).executeTakeFirstOrThrow()).runAt!;
      expect(await drainEvents({ now: new Date(Date.parse(next) + 1) })).toBe(1);
    }
    row = await db.selectFrom("events").selectAll().where("id", "=", doomed).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: MAX_ATTEMPTS, processedAt: null });
    expect(row.failedAt).not.toBeNull();
    expect(await drainEvents({ now: later(10 * HOUR) })).toBe(0);
    expect(errors).toHaveBeenCalledTimes(1);
    errors.mockRestore();
  });

  it("a backlog goes out in time slices, many events per commit, yielding to the event loop between slices", async () => {
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 600; i++) await emit(trx, { orgId: null, name: "project.created", data: { i } });
    });
    const slices: number[] = [];
    let timerFired = -1;
    // A timer that is due at once can only fire when the drain hands the loop back.
    setTimeout(() => (timerFired = delivered.length), 0);
    let handled: number;
    const now = later();
    do {
      handled = await dispatchEventSlice(now, 2);
      if (handled) slices.push(handled);
      await yieldToLoop();
    } while (handled);
    expect(slices.reduce((a, b) => a + b, 0)).toBe(600);
    expect(slices.length).toBeGreaterThan(1);
    expect(Math.max(...slices)).toBeGreaterThan(1);
    expect(timerFired).toBeGreaterThan(0);
    expect(timerFired).toBeLessThan(600);
    expect(new Set(delivered.map((e) => e.data.i)).size).toBe(600);
  });

  it("emit() in a rolled-back transaction leaves no event", async () => {
    let eventId: string | undefined;
    await expect(
      db.transaction().execute(async (trx) => {
        eventId = await emit(trx, { orgId: null, name: "project.deleted", data: { projectId: "p-3" } });
        throw new Error("roll it back");
      }),
    ).rejects.toThrow("roll it back");
    expect(eventId).toBeTypeOf("string");
    expect(await db.selectFrom("events").selectAll().execute()).toEqual([]);
    expect(await drainEvents({ now: later() })).toBe(0);
    expect(delivered).toHaveLength(0);
  });
});

describe("eventMatches", () => {
  it("* matches every event in the catalogue", () => {
    for (const name of EVENT_NAMES) expect(eventMatches("*", name)).toBe(true);
  });

  it("a group pattern matches its own events only", () => {
    expect(eventMatches("project.*", "project.created")).toBe(true);
    expect(eventMatches("project.*", "project.status_changed")).toBe(true);
    expect(eventMatches("project.*", "prd.generated")).toBe(false);
    expect(eventMatches("project.*", "comment.created")).toBe(false);
    // A shared prefix is not the same group.
    expect(eventMatches("prd.*", "prdx.generated")).toBe(false);
    expect(eventMatches("member.*", "members.added")).toBe(false);
  });

  it("an exact name matches only itself", () => {
    expect(eventMatches("project.created", "project.created")).toBe(true);
    expect(eventMatches("project.created", "project.updated")).toBe(false);
    expect(eventMatches("project.created", "project.created.extra")).toBe(false);
    expect(eventMatches("comment.created", "project.created")).toBe(false);
  });
});
