import { Cron } from "croner";
import { db, isPrimary } from "~/db.server";
import { enqueue } from "./queue.server";

/**
 * Time triggers: each schedule only enqueues a persisted job (the worker runs
 * it, with retries). Started on the primary only, so a job is enqueued once.
 */
export const SCHEDULES = [
  // Weekly digest: Mondays 08:00 UTC.
  { name: "weekly-digest", pattern: "0 8 * * 1", job: "notifications.weekly-digest" },
] as const;

let crons: Cron[] = [];

export function startScheduler() {
  if (crons.length || !isPrimary()) return;
  crons = SCHEDULES.map(
    (s) =>
      new Cron(s.pattern, { name: s.name, timezone: "UTC", protect: true }, async (self: Cron) => {
        if (!isPrimary()) return;
        const scheduledFor = (self.currentRun() ?? new Date()).toISOString();
        try {
          await enqueue(db, s.job, { scheduledFor });
        } catch (error) {
          console.error(`[scheduler] could not enqueue ${s.job}`, error);
        }
      }),
  );
}

export function stopScheduler() {
  for (const c of crons) c.stop();
  crons = [];
}

/** Next run time of each schedule (for operations pages and tests). */
export function nextRuns(from = new Date()) {
  return SCHEDULES.map((s) => ({ name: s.name, job: s.job, nextRun: new Cron(s.pattern, { timezone: "UTC", paused: true }).nextRun(from) }));
}
