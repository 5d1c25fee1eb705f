import type { Job } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { enqueue } from "~/jobs/queue.server";
import type { JobHandler, Tick } from "~/jobs/types";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { planAtLeast, PLAN_NAMES } from "../billing/plans";
import { AppError } from "../errors";
import { emit, type Listener } from "../events/events.server";
import { giveUpEmail } from "../mail/mail.server";
import { deliverRun, type RunRow } from "./deliver.server";
import { nextRunAt } from "./schedule";
import { presentLog, type ScheduleRow } from "./present.server";
import { scheduleToRun } from "./schedules.server";

/**
 * Runs of scheduled exports. A run is a row (unique per schedule and
 * occurrence, so it is never doubled) plus a persisted job that delivers it
 * with the queue's retries. Time-based runs are made by a tick every minute
 * and once at start-up; status-change runs by the project.status_changed
 * event; manual runs by "run now".
 */

export const RUN_JOB = "scheduled-export.run";
/** A run this late (server down, worker stalled) is recorded as a catch-up. */
const CATCH_UP_AFTER_MS = 2 * 60_000;
/** Finished runs and log entries kept per schedule (the API shows the last 50). */
const KEEP_PER_SCHEDULE = 100;

type Reason = RunRow["reason"];

/**
 * Records a run of `schedule` for `scheduledFor` with its `pending` log entry
 * and queues its job, in the caller's transaction. Null when that occurrence
 * already has a run.
 */
export async function createRun(
  trx: Executor,
  schedule: Pick<ScheduleRow, "id" | "deliveryMethod" | "recipients" | "webhookUrl">,
  scheduledFor: string,
  reason: Reason,
  now = new Date(),
) {
  const stamp = nowIso(now);
  const inserted = await trx
    .insertInto("scheduledExportRuns")
    .values({ id: newId(), scheduleId: schedule.id, scheduledFor, reason, status: "pending", emailIds: null, snapshot: null, createdAt: stamp })
    .onConflict((oc) => oc.columns(["scheduleId", "scheduledFor"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return null;
  const log = {
    id: newId(),
    scheduledExportId: schedule.id,
    runId: inserted.id,
    status: "pending" as const,
    deliveryMethod: schedule.deliveryMethod,
    // E-mail: the addresses; webhook: the URL.
    recipients: schedule.deliveryMethod === "email" ? schedule.recipients : JSON.stringify(schedule.webhookUrl ? [schedule.webhookUrl] : []),
    error: null,
    createdAt: stamp,
    updatedAt: stamp,
  };
  await trx.insertInto("exportDeliveryLogs").values(log).execute();
  await enqueue(trx, RUN_JOB, { runId: inserted.id }, { runAt: now });
  return { runId: inserted.id, log };
}

/**
 * Starts every due schedule once, in one transaction: a run for the
 * occurrence it was due at, and the next occurrence after `now`. Several
 * occurrences missed while the server was down become one catch-up run.
 */
export async function tickScheduledExports(now = new Date()) {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom("scheduledExports")
      .selectAll()
      .where("isActive", "=", 1)
      .where("nextRunAt", "is not", null)
      .where("nextRunAt", "<=", nowIso(now))
      .orderBy("nextRunAt")
      .limit(500)
      .execute();
    let started = 0;
    for (const s of due) {
      const late = now.getTime() - Date.parse(s.nextRunAt!) > CATCH_UP_AFTER_MS;
      if (await createRun(trx, s, s.nextRunAt!, late ? "catch_up" : "schedule", now)) started++;
      let next: Date | null = null;
      try {
        next = nextRunAt(s, now);
      } catch {
        next = null; // e.g. a timezone this runtime no longer knows: stop rather than loop
      }
      await trx
        .updateTable("scheduledExports")
        .set({ nextRunAt: next ? nowIso(next) : null })
        .where("id", "=", s.id)
        .execute();
    }
    return { due: due.length, started };
  });
}

/** The every-minute tick (listed in app/jobs/handlers.server.ts). */
export const scheduledExportsTick: Tick = {
  name: "scheduled-exports",
  pattern: "* * * * *",
  atStart: true,
  run: () => tickScheduledExports().then(() => undefined),
};

/** "Run now" (trigger): a run outside the schedule, also while paused. 409 while another manual run is pending. */
export async function triggerSchedule(actor: Actor, id: string, now = new Date()) {
  const schedule = await scheduleToRun(actor, id);
  const run = await db.transaction().execute(async (trx) => {
    const pending = await trx
      .selectFrom("scheduledExportRuns")
      .select("id")
      .where("scheduleId", "=", id)
      .where("reason", "=", "manual")
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (pending) throw new AppError("CONFLICT", 409, "This export is already being run; wait for its delivery log entry to finish");
    return createRun(trx, schedule, `${nowIso(now)}#manual-${newId()}`, "manual", now);
  });
  return { runId: run!.runId, log: presentLog(run!.log) };
}

const str = (v: unknown) => (typeof v === "string" && v ? v : null);

/** The status-change trigger: the dispatcher's listener (listed in app/jobs/handlers.server.ts). */
export const scheduledExportsListener: Listener = async (event, trx) => {
  if (event.name !== "project.status_changed" || !event.orgId) return;
  const projectId = str(event.data.projectId);
  const to = str(event.data.to);
  if (!projectId || !to) return;
  const schedules = await trx
    .selectFrom("scheduledExports")
    .selectAll()
    .where("orgId", "=", event.orgId)
    .where("projectId", "=", projectId)
    .where("scheduleType", "=", "on_status_change")
    .where("triggerStatus", "=", to)
    .where("isActive", "=", 1)
    .execute();
  // The event's id makes the occurrence: dispatching the event again does not run it twice.
  for (const s of schedules) await createRun(trx, s, `${event.createdAt}#${event.id}`, "status_change");
};

async function loadRun(runId: string) {
  const run = await db.selectFrom("scheduledExportRuns").selectAll().where("id", "=", runId).executeTakeFirst();
  if (!run) return null;
  const schedule = await db.selectFrom("scheduledExports").selectAll().where("id", "=", run.scheduleId).executeTakeFirst();
  const log = await db.selectFrom("exportDeliveryLogs").select("id").where("runId", "=", runId).executeTakeFirst();
  if (!schedule || !log) return null;
  const org = await db.selectFrom("organizations").select(["plan"]).where("id", "=", schedule.orgId).executeTakeFirstOrThrow();
  return { run, schedule, logId: log.id, plan: org.plan };
}

type Loaded = NonNullable<Awaited<ReturnType<typeof loadRun>>>;

/** Ends a run: its log entry, the schedule's last delivered text, an export.completed/failed event, old entries pruned. */
async function finish({ run, schedule, logId }: Loaded, error: string | null, at: string) {
  await db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("scheduledExportRuns").select(["status", "snapshot"]).where("id", "=", run.id).executeTakeFirst();
    if (!current || current.status !== "pending") return;
    await trx
      .updateTable("exportDeliveryLogs")
      .set({ status: error ? "failed" : "delivered", error, updatedAt: at })
      .where("id", "=", logId)
      .execute();
    await trx
      .updateTable("scheduledExportRuns")
      .set({ status: error ? "failed" : "done", snapshot: null })
      .where("id", "=", run.id)
      .execute();
    if (!error && current.snapshot !== null) {
      await trx.updateTable("scheduledExports").set({ lastDeliveredContent: current.snapshot }).where("id", "=", schedule.id).execute();
    }
    await emit(trx, {
      orgId: schedule.orgId,
      name: error ? "export.failed" : "export.completed",
      data: {
        projectId: schedule.projectId,
        scheduledExportId: schedule.id,
        runId: run.id,
        format: schedule.format,
        deliveryMethod: schedule.deliveryMethod,
        reason: run.reason,
        ...(error ? { error, userId: schedule.createdById } : {}),
      },
    });
    for (const table of ["exportDeliveryLogs", "scheduledExportRuns"] as const) {
      const column = table === "exportDeliveryLogs" ? "scheduledExportId" : "scheduleId";
      const keep = trx.selectFrom(table).select("id").where(column, "=", schedule.id).orderBy("createdAt", "desc").limit(KEEP_PER_SCHEDULE);
      await trx.deleteFrom(table).where(column, "=", schedule.id).where("status", "!=", "pending").where("id", "not in", keep).execute();
    }
  });
  if (error) {
    // Messages of this run not sent by now will not be: the outbox shows them failed.
    const fresh = await db.selectFrom("scheduledExportRuns").select("emailIds").where("id", "=", run.id).executeTakeFirst();
    for (const id of JSON.parse(fresh?.emailIds ?? "[]") as string[]) await giveUpEmail(id);
  }
}

/** Delivers one run (listed in app/jobs/handlers.server.ts under RUN_JOB). */
export const scheduledExportRunJob: JobHandler = {
  async run({ runId }: { runId: string }, job: Job) {
    const loaded = await loadRun(runId);
    if (!loaded || loaded.run.status !== "pending") return;
    const at = job.lockedAt ?? nowIso();
    await db.updateTable("scheduledExports").set({ lastRunAt: at }).where("id", "=", loaded.schedule.id).execute();
    if (!planAtLeast(loaded.plan, "pro")) {
      return finish(loaded, `Scheduled exports need the Pro plan or above; this organization is on ${PLAN_NAMES[loaded.plan]}`, at);
    }
    const outcome = await deliverRun(loaded.schedule, loaded.run, loaded.logId);
    if (outcome.ok) return finish(loaded, null, at);
    if (!outcome.retry || job.attempts >= job.maxAttempts) return finish(loaded, outcome.error, at);
    // Stays pending with the latest error; the queue tries again with backoff.
    await db
      .updateTable("exportDeliveryLogs")
      .set({ error: `Attempt ${job.attempts} of ${job.maxAttempts} failed: ${outcome.error}`, updatedAt: at })
      .where("id", "=", loaded.logId)
      .execute();
    throw new Error(outcome.error);
  },
  async onGiveUp({ runId }: { runId: string }, _job: Job, error: unknown) {
    // Reached when the worker stopped during the last attempt.
    const loaded = await loadRun(runId);
    if (loaded) await finish(loaded, error instanceof Error ? error.message : String(error), nowIso());
  },
};
