import type { Job } from "#db/schema";
import { config } from "~/config.server";
import { logger } from "~/utils/log.server";
import { isLane, LANE_DEFAULTS, type LaneName } from "./lanes";
import { completeJob, failJob } from "./queue.server";
import type { JobHandler } from "./types";

/**
 * The jobs this process has in hand, by lane, each under its lane's timeout
 * (./lanes.ts; the worker claims them, ./worker.server.ts). A lane has as
 * many slots as its concurrency. When a job's time is up its signal aborts,
 * it is failed and retried with backoff (its lease released, ./queue.server.ts)
 * and its slot is free for the next job at once, even if the handler goes on
 * ignoring the signal: whatever it does later is not recorded as the job's
 * outcome.
 */

export interface LaneSettings {
  concurrency: number;
  timeoutMs: number;
}

/** A lane's concurrency and timeout: JOB_CONCURRENCY and JOB_TIMEOUT_SECONDS over the defaults (docs/operations.md, "Jobs and events"). */
export function laneSettings(lane: LaneName): LaneSettings {
  const cfg = config();
  const defaults = LANE_DEFAULTS[lane];
  return {
    concurrency: cfg.JOB_CONCURRENCY[lane] ?? defaults.concurrency,
    timeoutMs: Math.round((cfg.JOB_TIMEOUT_SECONDS[lane] ?? defaults.timeoutSeconds) * 1000),
  };
}

export class JobTimeoutError extends Error {
  override name = "JobTimeoutError";
}

/** The reason the jobs in hand are aborted at shutdown: their leases stay, and the next start takes them back. */
export class WorkerStoppedError extends Error {
  override name = "WorkerStoppedError";
}

interface InHand {
  lane: LaneName;
  controller: AbortController;
}
const inHand = new Map<string, InHand>();

export const laneOfJob = (job: Pick<Job, "lane">): LaneName => (isLane(job.lane) ? job.lane : "other");

/** How many more jobs `lane` may start now. */
export function freeSlots(lane: LaneName) {
  let used = 0;
  for (const job of inHand.values()) if (job.lane === lane) used++;
  return Math.max(0, laneSettings(lane).concurrency - used);
}

/** The ids of the jobs in hand (their leases are not abandoned). */
export function jobIdsInHand() {
  return [...inHand.keys()];
}

/** Shutdown: every job in hand is asked to stop and its slot freed; nothing more is written for it (its lease stays). */
export function abortJobsInHand() {
  for (const job of inHand.values()) job.controller.abort(new WorkerStoppedError("The server is shutting down"));
}

/**
 * Runs a claimed job in its lane's slot: completes it, or fails it (retried
 * with backoff, given up after its last attempt). Never rejects; settles
 * when the slot is free again.
 */
export async function runClaimedJob(job: Job, handler: JobHandler | undefined, now?: Date): Promise<void> {
  const lane = laneOfJob(job);
  const { timeoutMs } = laneSettings(lane);
  const controller = new AbortController();
  inHand.set(job.id, { lane, controller });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new JobTimeoutError(`Timed out after ${timeoutMs / 1000} s (the ${lane} lane's limit)`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  const stopped = new Promise<"stopped">((resolve) =>
    controller.signal.addEventListener("abort", () => controller.signal.reason instanceof WorkerStoppedError && resolve("stopped"), { once: true }),
  );
  try {
    let outcome: unknown;
    try {
      if (!handler) throw new Error(`No handler for job type ${job.type}`);
      const work = handler.run(JSON.parse(job.payload), job, controller.signal);
      // Past its timeout the handler may still end or fail: its lease is gone, and nothing of it counts.
      work.catch(() => {});
      outcome = await Promise.race([work, timedOut, stopped]);
    } finally {
      clearTimeout(timer);
    }
    if (outcome === "stopped") return;
    await completeJob(job);
  } catch (error) {
    try {
      if (error instanceof JobTimeoutError) logger.warn("[jobs] job timed out", { jobId: job.id, type: job.type, lane, attempt: job.attempts });
      const retrying = await failJob(job, error, now);
      if (retrying === false) await handler?.onGiveUp?.(JSON.parse(job.payload), job, error).catch(() => {});
    } catch (recording) {
      // The database refused (a full disk): the lease stays, and the job is released when it goes stale.
      console.error(`[jobs] could not record the failure of job ${job.id} (${job.type})`, recording);
    }
  } finally {
    inHand.delete(job.id);
  }
}
