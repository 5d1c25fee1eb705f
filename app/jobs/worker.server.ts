import { isPrimary } from "~/db.server";
import { drainEvents, SLICE_MS, yieldToLoop } from "~/domain/events/dispatch.server";
import { whenEmitted } from "~/domain/events/events.server";
import { abortJobsInHand, freeSlots, jobIdsInHand, runClaimedJob } from "./lane-runner.server";
import { LANES } from "./lanes";
import { claimNextJob, releaseAbandonedJobs } from "./queue.server";
import type { JobHandler } from "./types";

/**
 * One worker over the outbox events and the jobs table. It runs only where
 * the database is writable (the LiteFS primary). Handlers register by job
 * type (./handlers.server.ts lists them). Jobs run in lanes by kind
 * (./lanes.ts): each lane has its own slots and per-job timeout
 * (./lane-runner.server.ts), so a hung receiver delays only its own kind.
 * Background work never holds the event loop for long: events go out in
 * time-sliced batches (domain/events/dispatch.server.ts) and the claim loop
 * yields to waiting requests every SLICE_MS.
 */

/** Handlers by job type; ./handlers.server.ts registers the app's list at start-up (tests add their own). */
const handlers = new Map<string, JobHandler>();

export function registerJobHandler(type: string, handler: JobHandler) {
  handlers.set(type, handler);
}

/** Dispatches due events, one drain at a time (a second caller waits for the one under way, then runs again). */
let draining: Promise<void> | undefined;
let drainAgain = false;
let drainNow: Date | undefined;
function drain(now?: Date): Promise<void> {
  drainNow = now;
  if (draining) {
    drainAgain = true;
    return draining;
  }
  draining = (async () => {
    try {
      do {
        drainAgain = false;
        await drainEvents({ now: drainNow, shouldContinue: isPrimary });
      } while (drainAgain && isPrimary());
    } finally {
      draining = undefined;
    }
  })();
  return draining;
}

/** Gives up the jobs whose lease went stale on their last attempt; with `anyAge`, every lease of an earlier process. */
async function releaseAbandoned(now: Date | undefined, anyAge: boolean) {
  for (const job of await releaseAbandonedJobs({ now, anyAge, inHand: jobIdsInHand() })) {
    const error = new Error(job.lastError ?? "abandoned");
    await handlers
      .get(job.type)
      ?.onGiveUp?.(JSON.parse(job.payload), job, error)
      .catch(() => {});
  }
}

/**
 * Claims due jobs into every lane's free slots, oldest first within a lane,
 * and starts them (not waiting for them); returns the jobs started. Checked
 * before every claim: a machine that lost the LiteFS lease finishes the jobs
 * in hand and claims no other.
 */
async function fillLanes(now: Date | undefined, max: number, started: (run: Promise<void>) => void) {
  let count = 0;
  let sliceStart = performance.now();
  for (const lane of LANES) {
    while (count < max && freeSlots(lane) > 0 && isPrimary()) {
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToLoop();
        sliceStart = performance.now();
        if (freeSlots(lane) === 0) break;
      }
      const job = await claimNextJob(now, { lane, inHand: jobIdsInHand() });
      if (!job) break;
      count++;
      started(runClaimedJob(job, handlers.get(job.type), now));
    }
  }
  return count;
}

/**
 * Dispatches the due events, then runs due jobs in their lanes until none is
 * due (or `limit` have started), the events each job emitted dispatched as it
 * ends; returns how many jobs ran. Waits for the jobs it started. Tests call
 * it directly.
 */
export async function runDueJobs(options: { now?: Date; limit?: number } = {}) {
  const limit = options.limit ?? 100;
  if (!isPrimary()) return 0;
  await drain(options.now);
  await releaseAbandoned(options.now, false);
  const mine = new Set<Promise<void>>();
  let ran = 0;
  for (;;) {
    const started = await fillLanes(options.now, limit - ran, (run) => {
      mine.add(run);
      void run.then(() => mine.delete(run));
    });
    ran += started;
    // Quick jobs may all have ended while the lanes were being filled: then go on while any was started.
    if (mine.size) await Promise.race(mine);
    else if (!started || ran >= limit) break;
    // What the job emitted (export.completed, a webhook switched off...) goes out before the next claims.
    await drain(options.now);
  }
  return ran;
}

let timer: NodeJS.Timeout | undefined;
let current: Promise<unknown> | undefined;
let stopping = false;
const running = new Set<Promise<void>>();
let wake: ((delayMs?: number) => void) | undefined;

/** The background worker's stale-lease sweep runs at most this often. */
const SWEEP_MS = 10_000;

/**
 * Starts the worker: a tick at once (the first one takes back every job an
 * earlier process left running), then whenever a job ends, an event is
 * emitted, or `intervalMs` passes.
 */
export function startWorker(intervalMs = 1000) {
  if (timer || current) return;
  stopping = false;
  let busy = false;
  let again = false;
  let waking = false;
  // The first tick as primary (at start-up, or after a LiteFS promotion) takes back the jobs of earlier processes.
  let reclaimed = false;
  let lastSweep = 0;
  const tick = async () => {
    timer = undefined;
    waking = false;
    if (stopping) return;
    busy = true;
    let started = 0;
    if (isPrimary()) {
      current = (async () => {
        await drain();
        if (!reclaimed || Date.now() - lastSweep > SWEEP_MS) {
          await releaseAbandoned(undefined, !reclaimed);
          reclaimed = true;
          lastSweep = Date.now();
        }
        return fillLanes(undefined, 100, (run) => {
          running.add(run);
          void run.then(() => {
            running.delete(run);
            // A slot is free and the job may have emitted events: go on at once.
            wake?.(0);
          });
        });
      })().catch((error) => console.error("[jobs] worker error", error));
      started = ((await current) as number | undefined) ?? 0;
      current = undefined;
    } else reclaimed = false;
    busy = false;
    const soon = again || started >= 100;
    again = false;
    if (!stopping) timer = setTimeout(tick, soon ? 0 : intervalMs);
  };
  // An event was emitted or a job ended: run a tick within a few milliseconds instead of at the next poll.
  wake = (delayMs = 5) => {
    if (stopping) return;
    if (busy) {
      again = true;
      return;
    }
    // Once: a stream of emits must not keep pushing the tick back.
    if (waking) return;
    waking = true;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, delayMs);
  };
  whenEmitted(() => wake?.());
  timer = setTimeout(tick, 0);
}

/**
 * Stops taking jobs and waits for those in hand, up to `graceMs`; then their
 * signals abort and it returns. A job still running then is taken back at
 * once by the next process's start-up.
 */
export async function stopWorker(graceMs = 10_000) {
  stopping = true;
  wake = undefined;
  if (timer) clearTimeout(timer);
  timer = undefined;
  await current;
  if (!running.size) return;
  let grace: NodeJS.Timeout | undefined;
  const waited = await Promise.race([
    Promise.all(running).then(() => true),
    new Promise<false>((resolve) => (grace = setTimeout(() => resolve(false), graceMs))),
  ]);
  clearTimeout(grace);
  if (!waited) {
    abortJobsInHand();
    await Promise.all(running);
  }
}
