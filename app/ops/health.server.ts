import fs from "node:fs/promises";
import { sql } from "kysely";
import { config } from "~/config.server";
import { db } from "~/db.server";
import { QUEUES, type QueueName } from "~/jobs/lanes";
import { type QueueFigures, queueStats } from "./queue-stats.server";

/** What GET /api/health reports: the database, the background queues' lag (per job lane and the events) and the disk under DATA_DIR. */

type CheckStatus = "ok" | "unhealthy";

async function databaseCheck() {
  const started = performance.now();
  try {
    await sql`SELECT 1`.execute(db);
    return { status: "ok" as CheckStatus, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch {
    return { status: "unhealthy" as CheckStatus, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  }
}

/**
 * Each queue (a job lane, or the outbox events) is unhealthy when its oldest
 * due item has waited past its bound: HEALTH_QUEUE_LAG_SECONDS for that
 * queue, else HEALTH_MAX_QUEUE_LAG_SECONDS. `slow` names those queues.
 */
async function jobsCheck() {
  const cfg = config();
  const bound = (name: QueueName) => cfg.HEALTH_QUEUE_LAG_SECONDS[name] ?? cfg.HEALTH_MAX_QUEUE_LAG_SECONDS;
  const check = (name: QueueName, q: QueueFigures, failed = false) => ({
    status: (failed || q.lagSeconds > bound(name) ? "unhealthy" : "ok") as CheckStatus,
    ...q,
    maxLagSeconds: bound(name),
  });
  try {
    const stats = await queueStats();
    const queues = Object.fromEntries(QUEUES.map((name) => [name, check(name, stats.queues[name])])) as Record<QueueName, ReturnType<typeof check>>;
    const slow = QUEUES.filter((name) => queues[name].status !== "ok");
    return { status: (slow.length ? "unhealthy" : "ok") as CheckStatus, queued: stats.queued, lagSeconds: stats.lagSeconds, slow, queues };
  } catch {
    const unknown = { queued: 0, running: 0, lagSeconds: 0 };
    const queues = Object.fromEntries(QUEUES.map((name) => [name, check(name, unknown, true)])) as Record<QueueName, ReturnType<typeof check>>;
    return { status: "unhealthy" as CheckStatus, queued: 0, lagSeconds: 0, slow: [...QUEUES], queues };
  }
}

// statfs goes through libuv's thread pool; the disk does not fill up in a second, and health is polled often.
const DISK_CACHE_MS = 2000;
let disk: { at: number; stats: { bavail: number; bsize: number; blocks: number } } | undefined;

async function diskStats(dir: string) {
  const now = Date.now();
  if (!disk || now - disk.at > DISK_CACHE_MS) disk = { at: now, stats: await fs.statfs(dir) };
  return disk.stats;
}

/** Forgets the cached disk figures (tests that change the thresholds). */
export function resetHealthCache() {
  disk = undefined;
}

async function diskCheck() {
  const cfg = config();
  try {
    const stats = await diskStats(cfg.DATA_DIR);
    const freeBytes = stats.bavail * stats.bsize;
    const totalBytes = stats.blocks * stats.bsize;
    const low = freeBytes < cfg.HEALTH_MIN_FREE_BYTES || (totalBytes > 0 && (freeBytes / totalBytes) * 100 < cfg.HEALTH_MIN_FREE_PERCENT);
    return { status: (low ? "unhealthy" : "ok") as CheckStatus, freeBytes, totalBytes };
  } catch {
    return { status: "unhealthy" as CheckStatus, freeBytes: 0, totalBytes: 0 };
  }
}

export async function healthReport() {
  const [database, jobs, disk] = await Promise.all([databaseCheck(), jobsCheck(), diskCheck()]);
  const healthy = database.status === "ok" && jobs.status === "ok" && disk.status === "ok";
  return { status: healthy ? ("ok" as const) : ("degraded" as const), checks: { database, jobs, disk } };
}
