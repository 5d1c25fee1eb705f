import { sql } from "kysely";
import { db } from "~/db.server";
import { registerQueueStats } from "~/http/server/metrics.server";
import { isLane, QUEUES, type QueueName } from "~/jobs/lanes";
import { nowIso } from "~/utils/ids.server";

/**
 * The background queues as operations sees them: for each job lane
 * (app/jobs/lanes.ts) and for the undispatched outbox events, how many are
 * due now, how many are running, and how long the oldest due one has waited
 * past its `runAt` (0 when none is due); and the totals over all of them.
 * Read by /api/health and the /metrics gauges.
 */

export interface QueueFigures {
  queued: number;
  running: number;
  lagSeconds: number;
}

const lag = (now: Date, oldest: string | null) => (oldest ? Math.max(0, Math.round((now.getTime() - Date.parse(oldest)) / 1000)) : 0);

export async function queueStats(now = new Date()) {
  const at = nowIso(now);
  const [due, running, events] = await Promise.all([
    sql<{ lane: string; n: number; oldest: string | null }>`
      SELECT lane, COUNT(*) AS n, MIN(runAt) AS oldest FROM jobs WHERE status = 'queued' AND runAt <= ${at} GROUP BY lane`.execute(db),
    sql<{ lane: string; n: number }>`SELECT lane, COUNT(*) AS n FROM jobs WHERE status = 'running' GROUP BY lane`.execute(db),
    sql<{ n: number; oldest: string | null }>`
      SELECT COUNT(*) AS n, MIN(runAt) AS oldest FROM events WHERE processedAt IS NULL AND failedAt IS NULL AND runAt <= ${at}`.execute(db),
  ]);
  const queues = Object.fromEntries(QUEUES.map((name) => [name, { queued: 0, running: 0, lagSeconds: 0 }])) as Record<QueueName, QueueFigures>;
  for (const row of due.rows) {
    const q = queues[isLane(row.lane) ? row.lane : "other"];
    q.queued += Number(row.n);
    q.lagSeconds = Math.max(q.lagSeconds, lag(now, row.oldest));
  }
  for (const row of running.rows) queues[isLane(row.lane) ? row.lane : "other"].running += Number(row.n);
  queues.events.queued = Number(events.rows[0]?.n ?? 0);
  queues.events.lagSeconds = lag(now, events.rows[0]?.oldest ?? null);
  const all = Object.values(queues);
  return {
    queued: all.reduce((sum, q) => sum + q.queued, 0),
    lagSeconds: Math.max(...all.map((q) => q.lagSeconds)),
    queues,
  };
}

registerQueueStats(() => queueStats());
