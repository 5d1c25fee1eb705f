import crypto from "node:crypto";
import { type SqlBool, sql } from "kysely";
import type { Job } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { type LaneName, laneOf } from "./lanes";

/**
 * The persisted job queue: one table, visible state, retries with backoff.
 *
 * A claim is a lease: `status = 'running'`, `lockedAt`, and `lockedBy` =
 * this process's WORKER_ID (migration 0030). Completing or failing a job
 * checks that the lease is still this claim's (same owner, same attempt), so
 * a job this process gave up on (timed out, reclaimed) cannot be finished by
 * a late handler. Claiming is one UPDATE … RETURNING: SQLite runs it under
 * the write lock, so two claimers never take the same job.
 */

/** This process's lease owner: a job locked by any other id was claimed by an earlier (or another) process. */
export const WORKER_ID = crypto.randomUUID();

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
}

export async function enqueue(executor: Executor, type: string, payload: Record<string, unknown>, options: EnqueueOptions = {}) {
  const now = nowIso();
  const id = newId();
  await executor
    .insertInto("jobs")
    .values({
      id,
      type,
      lane: laneOf(type),
      payload: JSON.stringify(payload),
      status: "queued",
      attempts: 0,
      maxAttempts: options.maxAttempts ?? 6,
      runAt: nowIso(options.runAt ?? new Date()),
      lockedAt: null,
      lockedBy: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return id;
}

/** Exponential backoff: 30 s, 1 min, 2 min, 4 min ... capped at 1 hour. */
export function backoffMs(attempt: number) {
  return Math.min(30_000 * 2 ** (attempt - 1), 60 * 60 * 1000);
}

/** A lease older than this, held by another process, is taken over (a process on the same database that stopped answering). */
export const STALE_LOCK_MS = 5 * 60 * 1000;

/**
 * Atomically claims the next due job, of `lane` when given: the queued job
 * due longest, or a job whose lease is older than STALE_LOCK_MS (its worker
 * died mid-run, or could not record the outcome), except the jobs this
 * process has `inHand` (a long export's lease is not stale while it runs).
 * Two jobs of the same work (same type and payload: two refreshes of one
 * project's embedding) never run at once: the later waits for the earlier,
 * as it did when jobs ran one at a time.
 */
export async function claimNextJob(now = new Date(), options: { lane?: LaneName; inHand?: readonly string[] } = {}): Promise<Job | undefined> {
  const at = nowIso(now);
  const staleBefore = nowIso(new Date(now.getTime() - STALE_LOCK_MS));
  const inLane = options.lane ? sql`AND lane = ${options.lane}` : sql``;
  // Each branch takes its own oldest row through an index; a backlog is never sorted.
  const result = await sql<Job>`
    UPDATE jobs SET status = 'running', lockedAt = ${at}, lockedBy = ${WORKER_ID}, attempts = attempts + 1, updatedAt = ${at}
    WHERE id = (
      SELECT id FROM (
        SELECT * FROM (
          SELECT id, runAt FROM jobs AS q WHERE status = 'queued' AND runAt <= ${at} ${inLane}
            AND NOT EXISTS (SELECT 1 FROM jobs AS r WHERE r.status = 'running' AND r.type = q.type AND r.payload = q.payload)
          ORDER BY runAt LIMIT 1)
        UNION ALL
        SELECT * FROM (
          SELECT id, runAt FROM jobs
          WHERE status = 'running' AND lockedAt < ${staleBefore} AND attempts < maxAttempts ${inLane}
            AND id NOT IN (SELECT value FROM json_each(${JSON.stringify(options.inHand ?? [])}))
          ORDER BY runAt LIMIT 1)
      ) ORDER BY runAt LIMIT 1
    )
    RETURNING *`.execute(db);
  return result.rows[0];
}

/**
 * Jobs left running by a process that is gone: at start-up (and when this
 * machine becomes the LiteFS primary) every lease not held by this process
 * (`anyAge`), later only those older than STALE_LOCK_MS. Those with attempts
 * left go back to the queue, due at once; those on their last attempt are
 * marked failed and returned, so their handler can give up.
 */
export async function releaseAbandonedJobs(options: { now?: Date; anyAge?: boolean; inHand?: readonly string[] } = {}): Promise<Job[]> {
  const now = options.now ?? new Date();
  const at = nowIso(now);
  // At start-up: every lease of another process. Later: leases older than STALE_LOCK_MS, except this process's jobs in hand.
  const abandoned = options.anyAge
    ? sql`status = 'running' AND (lockedBy IS NULL OR lockedBy != ${WORKER_ID})`
    : sql`status = 'running' AND lockedAt < ${nowIso(new Date(now.getTime() - STALE_LOCK_MS))}
        AND id NOT IN (SELECT value FROM json_each(${JSON.stringify(options.inHand ?? [])}))`;
  await sql`
    UPDATE jobs SET status = 'queued', lockedAt = NULL, lockedBy = NULL, updatedAt = ${at},
      lastError = 'The worker stopped while running this job'
    WHERE ${abandoned} AND attempts < maxAttempts`.execute(db);
  const failed = await sql<Job>`
    UPDATE jobs SET status = 'failed', lockedAt = NULL, lockedBy = NULL, lastError = 'The worker stopped while running this job',
      updatedAt = ${at}
    WHERE ${abandoned} AND attempts >= maxAttempts
    RETURNING *`.execute(db);
  return failed.rows;
}

/** The claim `job` came from is still this process's (not timed out and handed on, not taken over). */
const leaseOf = (job: Job) => sql<SqlBool>`status = 'running' AND lockedBy IS ${job.lockedBy} AND attempts = ${job.attempts}`;

/** Marks a job done: by id, or for a claimed job only while its claim holds. Returns false when the lease was gone. */
export async function completeJob(job: string | Job) {
  const query = db.updateTable("jobs").set({ status: "done", lockedAt: null, lockedBy: null, updatedAt: nowIso() });
  if (typeof job === "string") {
    await query.where("id", "=", job).execute();
    return true;
  }
  const result = await query.where("id", "=", job.id).where(leaseOf(job)).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Records a failure of a claimed job; returns true when it will be retried,
 * false when it failed for good, null when its lease was gone (someone else
 * owns the job now, nothing recorded).
 */
export async function failJob(job: Job, error: unknown, now = new Date()): Promise<boolean | null> {
  const message = error instanceof Error ? error.message : String(error);
  const retry = job.attempts < job.maxAttempts;
  const result = await db
    .updateTable("jobs")
    .set({
      status: retry ? "queued" : "failed",
      lockedAt: null,
      lockedBy: null,
      lastError: message.slice(0, 2000),
      runAt: retry ? nowIso(new Date(now.getTime() + backoffMs(job.attempts))) : job.runAt,
      updatedAt: nowIso(now),
    })
    .where("id", "=", job.id)
    .where(leaseOf(job))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n ? retry : null;
}
