import { sql } from "kysely";
import type { Job } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";

/** The persisted job queue: one table, visible state, retries with backoff. */

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
      payload: JSON.stringify(payload),
      status: "queued",
      attempts: 0,
      maxAttempts: options.maxAttempts ?? 6,
      runAt: nowIso(options.runAt ?? new Date()),
      lockedAt: null,
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

const STALE_LOCK_MS = 5 * 60 * 1000;

/** Atomically claims the next due job (or a job whose worker died mid-run). */
export async function claimNextJob(now = new Date()): Promise<Job | undefined> {
  const nowStr = nowIso(now);
  const staleBefore = nowIso(new Date(now.getTime() - STALE_LOCK_MS));
  const result = await sql<Job>`
    UPDATE jobs SET status = 'running', lockedAt = ${nowStr}, attempts = attempts + 1, updatedAt = ${nowStr}
    WHERE id = (
      SELECT id FROM jobs
      WHERE (status = 'queued' AND runAt <= ${nowStr})
         OR (status = 'running' AND lockedAt < ${staleBefore} AND attempts < maxAttempts)
      ORDER BY runAt LIMIT 1
    )
    RETURNING *`.execute(db);
  return result.rows[0];
}

/**
 * Jobs whose worker died on their last attempt: mark them failed so they
 * stop being reclaimed, and return them so their handler can give up.
 */
export async function failAbandonedJobs(now = new Date()): Promise<Job[]> {
  const staleBefore = nowIso(new Date(now.getTime() - STALE_LOCK_MS));
  const result = await sql<Job>`
    UPDATE jobs SET status = 'failed', lockedAt = NULL, lastError = 'The worker stopped while running this job',
      updatedAt = ${nowIso(now)}
    WHERE status = 'running' AND lockedAt < ${staleBefore} AND attempts >= maxAttempts
    RETURNING *`.execute(db);
  return result.rows;
}

export async function completeJob(id: string) {
  await db.updateTable("jobs").set({ status: "done", lockedAt: null, updatedAt: nowIso() }).where("id", "=", id).execute();
}

/** Records a failure; returns true when the job will be retried. */
export async function failJob(job: Job, error: unknown, now = new Date()) {
  const message = error instanceof Error ? error.message : String(error);
  const retry = job.attempts < job.maxAttempts;
  await db
    .updateTable("jobs")
    .set({
      status: retry ? "queued" : "failed",
      lockedAt: null,
      lastError: message.slice(0, 2000),
      runAt: retry ? nowIso(new Date(now.getTime() + backoffMs(job.attempts))) : job.runAt,
      updatedAt: nowIso(now),
    })
    .where("id", "=", job.id)
    .execute();
  return retry;
}
