import type { Job } from "#db/schema";

/**
 * The shapes of background work, with no runtime code: domain modules export
 * values of these types and ./handlers.server.ts lists them. A domain module
 * imports this file and ./queue.server.ts (to enqueue), never the worker or
 * the scheduler, so the jobs runtime stays above the domain.
 */

/**
 * Runs the persisted jobs of one type (app/jobs/worker.server.ts claims them,
 * in the lane of the type, app/jobs/lanes.ts). `signal` aborts when the
 * lane's timeout passes: the job is then failed and retried with backoff,
 * and its slot is freed whether or not the handler stops; a handler that
 * does network work passes the signal on.
 */
export interface JobHandler {
  run(payload: any, job: Job, signal: AbortSignal): Promise<void>;
  /** Called once when the last attempt has failed. */
  onGiveUp?(payload: any, job: Job, error: unknown): Promise<void>;
}

/**
 * A tick: a cheap, idempotent check run in-process every time its pattern
 * fires (and, with `atStart`, once when the scheduler starts, to catch up
 * on what was missed while the server was down). It must not do the work
 * itself: it records it and enqueues persisted jobs. A failed tick is simply
 * tried again at the next one.
 */
export interface Tick {
  name: string;
  pattern: string;
  atStart?: boolean;
  run: () => Promise<void>;
}
