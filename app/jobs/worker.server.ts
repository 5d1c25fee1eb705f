import type { Job } from "#db/schema";
import { isPrimary } from "~/db.server";
import { claimNextJob, completeJob, failAbandonedJobs, failJob } from "./queue.server";

/**
 * One worker loop over the jobs table. It runs only where the database is
 * writable (the LiteFS primary). Handlers register by job type.
 */

export interface JobHandler {
  run(payload: any, job: Job): Promise<void>;
  /** Called once when the last attempt has failed. */
  onGiveUp?(payload: any, job: Job, error: unknown): Promise<void>;
}

const handlers = new Map<string, JobHandler>();

export function registerJobHandler(type: string, handler: JobHandler) {
  handlers.set(type, handler);
}

/** Runs due jobs one after another; returns how many ran. Tests call it directly. */
export async function runDueJobs(options: { now?: Date; limit?: number } = {}) {
  const limit = options.limit ?? 100;
  if (!isPrimary()) return 0;
  for (const job of await failAbandonedJobs(options.now)) {
    const error = new Error(job.lastError ?? "abandoned");
    await handlers.get(job.type)?.onGiveUp?.(JSON.parse(job.payload), job, error).catch(() => {});
  }
  let ran = 0;
  // Checked before every claim: a machine that lost the LiteFS lease finishes
  // the job in hand and claims no other.
  while (ran < limit && isPrimary()) {
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
  }
  return ran;
}

let timer: NodeJS.Timeout | undefined;
let current: Promise<unknown> | undefined;
let stopping = false;

export function startWorker(intervalMs = 1000) {
  if (timer) return;
  stopping = false;
  const tick = async () => {
    if (stopping) return;
    if (isPrimary()) {
      current = runDueJobs().catch((error) => console.error("[jobs] worker error", error));
      await current;
      current = undefined;
    }
    if (!stopping) timer = setTimeout(tick, intervalMs);
  };
  timer = setTimeout(tick, 50);
}

/** Stops taking jobs and waits for the one in flight. */
export async function stopWorker() {
  stopping = true;
  if (timer) clearTimeout(timer);
  timer = undefined;
  await current;
}
