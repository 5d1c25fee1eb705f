import { Cron } from "croner";
import { db, isPrimary } from "~/db.server";
import { enqueue } from "./queue.server";
import type { Tick } from "./types";

/**
 * Time triggers: each schedule only enqueues a persisted job (the worker runs
 * it, with retries). Started on the primary only, so a job is enqueued once.
 */
export const SCHEDULES = [
  // Weekly digest: Mondays 08:00 UTC.
  { name: "weekly-digest", pattern: "0 8 * * 1", job: "notifications.weekly-digest" },
] as const;

/** The ticks (./types.ts) that run here; ./handlers.server.ts registers the app's list at start-up. */
const ticks = new Map<string, Tick>();

export function registerTick(tick: Tick) {
  ticks.set(tick.name, tick);
}

async function runTick(tick: Tick) {
  if (!isPrimary()) return;
  try {
    await tick.run();
  } catch (error) {
    console.error(`[scheduler] tick ${tick.name} failed`, error);
  }
}

let crons: Cron[] = [];

/** Starts the time triggers; the promise settles when the start-up catch-up ticks have run. */
export function startScheduler(): Promise<void> {
  if (crons.length || !isPrimary()) return Promise.resolve();
  const atStart: Promise<void>[] = [];
  for (const tick of ticks.values()) {
    crons.push(new Cron(tick.pattern, { name: `tick:${tick.name}`, timezone: "UTC", protect: true }, () => runTick(tick)));
    if (tick.atStart) atStart.push(runTick(tick));
  }
  crons.push(
    ...SCHEDULES.map(
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
    ),
  );
  return Promise.all(atStart).then(() => undefined);
}

/** Whether the time triggers are running here (only on the primary). */
export function schedulerRunning() {
  return crons.length > 0;
}

export function stopScheduler() {
  for (const c of crons) c.stop();
  crons = [];
}

/** Next run time of each schedule (for operations pages and tests). */
export function nextRuns(from = new Date()) {
  return SCHEDULES.map((s) => ({ name: s.name, job: s.job, nextRun: new Cron(s.pattern, { timezone: "UTC", paused: true }).nextRun(from) }));
}
