import { isPrimary } from "~/db.server";
import { drainEvents, SLICE_MS, yieldToLoop } from "~/domain/events/dispatch.server";
import { whenEmitted } from "~/domain/events/events.server";
import { claimNextJob, completeJob, failAbandonedJobs, failJob } from "./queue.server";
import type { JobHandler } from "./types";

/**
 * One worker loop over the outbox events and the jobs table. It runs only
 * where the database is writable (the LiteFS primary). Handlers register by
 * job type (./handlers.server.ts lists them). Background work never holds the
 * event loop for long: events go out in time-sliced batches
 * (domain/events/dispatch.server.ts) and the loop
 * yields to waiting requests between slices and whenever jobs have run for
 * SLICE_MS.
 */

/** Handlers by job type; ./handlers.server.ts registers the app's list at start-up (tests add their own). */
const handlers = new Map<string, JobHandler>();

export function registerJobHandler(type: string, handler: JobHandler) {
  handlers.set(type, handler);
}

/**
 * Dispatches the due events, then runs due jobs one after another (jobs the
 * events queued included); returns how many jobs ran. Tests call it directly.
 */
export async function runDueJobs(options: { now?: Date; limit?: number } = {}) {
  const limit = options.limit ?? 100;
  if (!isPrimary()) return 0;
  await drainEvents({ now: options.now, shouldContinue: isPrimary });
  for (const job of await failAbandonedJobs(options.now)) {
    const error = new Error(job.lastError ?? "abandoned");
    await handlers
      .get(job.type)
      ?.onGiveUp?.(JSON.parse(job.payload), job, error)
      .catch(() => {});
  }
  let ran = 0;
  let sliceStart = performance.now();
  // Checked before every claim: a machine that lost the LiteFS lease finishes
  // the job in hand and claims no other.
  while (ran < limit && isPrimary()) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
    const job = await claimNextJob(options.now);
    if (!job) break;
    ran++;
    const handler = handlers.get(job.type);
    try {
      if (!handler) throw new Error(`No handler for job type ${job.type}`);
      await handler.run(JSON.parse(job.payload), job);
      await completeJob(job.id);
    } catch (error) {
      const retrying = await failJob(job, error, options.now);
      if (!retrying) await handler?.onGiveUp?.(JSON.parse(job.payload), job, error).catch(() => {});
    }
    // What the job emitted (export.completed, a webhook switched off...) goes out before the next job.
    await drainEvents({ now: options.now, shouldContinue: isPrimary });
  }
  return ran;
}

let timer: NodeJS.Timeout | undefined;
let current: Promise<unknown> | undefined;
let stopping = false;

let wake: (() => void) | undefined;

export function startWorker(intervalMs = 1000) {
  if (timer) return;
  stopping = false;
  let busy = false;
  let again = false;
  let waking = false;
  const tick = async () => {
    timer = undefined;
    waking = false;
    if (stopping) return;
    busy = true;
    let ran = 0;
    if (isPrimary()) {
      current = runDueJobs().catch((error) => console.error("[jobs] worker error", error));
      ran = ((await current) as number | undefined) ?? 0;
      current = undefined;
    }
    busy = false;
    // A full batch of jobs (or an emit meanwhile) means more is waiting: go on at once.
    const soon = again || ran >= 100;
    again = false;
    if (!stopping) timer = setTimeout(tick, soon ? 0 : intervalMs);
  };
  // An event was emitted: dispatch it within a few milliseconds instead of at the next poll.
  wake = () => {
    if (stopping) return;
    if (busy) {
      again = true;
      return;
    }
    // Once: a stream of emits must not keep pushing the tick back.
    if (waking) return;
    waking = true;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, 5);
  };
  whenEmitted(() => wake?.());
  timer = setTimeout(tick, 50);
}

/** Stops taking jobs and waits for the one in flight. */
export async function stopWorker() {
  stopping = true;
  wake = undefined;
  if (timer) clearTimeout(timer);
  timer = undefined;
  await current;
}
