import { sql } from "kysely";
import { db } from "~/db.server";
import { registerQueueStats } from "~/http/server/metrics.server";
import { nowIso } from "~/utils/ids.server";

/**
 * The background queue as operations sees it: how many queued jobs and
 * undispatched events are due now and how long the oldest of them has waited
 * past its `runAt` (0 when none is due). Read by /api/health and the
 * /metrics gauges.
 */
export async function queueStats(now = new Date()) {
  const at = nowIso(now);
  const { rows } = await sql<{ due: number; oldest: string | null }>`
    SELECT SUM(due) AS due, MIN(oldest) AS oldest FROM (
      SELECT COUNT(*) AS due, MIN(runAt) AS oldest FROM jobs WHERE status = 'queued' AND runAt <= ${at}
      UNION ALL
      SELECT COUNT(*), MIN(runAt) FROM events WHERE processedAt IS NULL AND failedAt IS NULL AND runAt <= ${at}
    )`.execute(db);
  const row = rows[0];
  const oldest = row?.oldest ? Date.parse(row.oldest) : null;
  return {
    queued: Number(row?.due ?? 0),
    lagSeconds: oldest === null ? 0 : Math.max(0, Math.round((now.getTime() - oldest) / 1000)),
  };
}

registerQueueStats(() => queueStats());
