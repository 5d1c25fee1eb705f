import crypto from "node:crypto";
import { db, type Executor } from "~/db.server";
import { encrypt } from "~/utils/crypto.server";
import { newId, nowIso } from "~/utils/ids.server";
import { type Actor, canWrite, requireWriter } from "../actor";
import { writeAudit } from "../audit/audit.server";
import { requirePlan } from "../billing/limits.server";
import { AppError, forbidden, notFound } from "../errors";
import { projectAccess, readableProjects, requireEdit } from "../projects/access.server";
import { type ScheduleFields, resolveSchedule } from "./rules.server";
import { presentLog, type ScheduleRow, scheduleFields, withDetails } from "./present.server";
import { canonicalScheduleType, DIGEST_LABEL, nextRunAt } from "./schedule";
import type { CreateScheduleInput, UpdateScheduleInput } from "./scheduled-exports.schema";
import { gateExport } from "../exports/export-approval.server";

/**
 * Scheduled exports: create, read, update, delete and the delivery log. Runs: ./runs.server.
 * A schedule names one project, or none: a digest of every project its
 * creator can read (./digest.server), visible to the roles that read every
 * project and managed by owners, admins and its creator.
 */

export type { ScheduleRow } from "./present.server";

/** The spec's "last 50". */
export const LOG_LIMIT = 50;

const requireScheduledExports = (actor: Actor) => requirePlan(actor.org, "pro", "Scheduled exports");

/** Create, change, run: owners and admins, or members who can edit the project. Viewers never. */
async function requireManage(actor: Actor, projectId: string, executor: Executor = db) {
  requireWriter(actor, "Viewers cannot manage scheduled exports");
  return requireEdit(actor, projectId, executor);
}

/** Change, run, delete: the project's editors (owners, admins included); a digest: owners, admins and its creator. */
async function requireManageSchedule(actor: Actor, row: { projectId: string | null; createdById: string | null }, executor: Executor = db) {
  if (row.projectId) return void (await requireManage(actor, row.projectId, executor));
  requireWriter(actor, "Viewers cannot manage scheduled exports");
  if (actor.role === "member" && row.createdById !== actor.user.id) {
    throw forbidden("Only its creator, owners and admins may change an export of every project");
  }
}

/** A schedule of the caller's organization on a project they can read, or a digest for a non-viewer (404 otherwise). */
async function loadSchedule(executor: Executor, actor: Actor, id: string) {
  const row = await executor.selectFrom("scheduledExports").selectAll().where("id", "=", id).where("orgId", "=", actor.org.id).executeTakeFirst();
  if (!row) throw notFound("Scheduled export");
  if (!row.projectId && !canWrite(actor)) throw notFound("Scheduled export");
  if (row.projectId) {
    try {
      await projectAccess(actor, row.projectId, executor);
    } catch (error) {
      if (error instanceof AppError && error.status === 404) throw notFound("Scheduled export");
      throw error;
    }
  }
  return row;
}

/** Schedules of the organization the caller can see (viewers: of the projects shared with them; no digests), newest first. */
export async function listSchedules(actor: Actor, query: { projectId?: string } = {}) {
  requireScheduledExports(actor);
  if (query.projectId) await projectAccess(actor, query.projectId);
  // Deleting a project deletes its schedules; a digest has none.
  let q = db
    .selectFrom("scheduledExports as s")
    .leftJoin("projects as p", "p.id", "s.projectId")
    .selectAll("s")
    .where("s.orgId", "=", actor.org.id)
    .where((eb) => (!canWrite(actor) ? readableProjects(actor) : eb.or([eb("s.projectId", "is", null), readableProjects(actor)])));
  if (query.projectId) q = q.where("s.projectId", "=", query.projectId);
  return withDetails(await q.orderBy("s.createdAt", "desc").limit(500).execute());
}

export async function getSchedule(actor: Actor, id: string) {
  requireScheduledExports(actor);
  const [out] = await withDetails([await loadSchedule(db, actor, id)]);
  return out!;
}

const newSecret = () => `whsec_${crypto.randomBytes(24).toString("hex")}`;

function columns(f: ScheduleFields, now: Date) {
  const next = f.isActive ? nextRunAt(f, now) : null;
  return {
    projectId: f.projectId,
    scheduleType: f.scheduleType,
    format: f.format,
    cronExpression: f.cronExpression,
    triggerStatus: f.triggerStatus,
    scheduledAt: f.scheduledAt,
    timezone: f.timezone,
    deliveryMethod: f.deliveryMethod,
    recipients: JSON.stringify(f.recipients),
    webhookUrl: f.webhookUrl,
    includeChangelog: f.includeChangelog ? 1 : 0,
    customSubject: f.customSubject,
    customMessage: f.customMessage,
    isActive: f.isActive ? 1 : 0,
    nextRunAt: next ? nowIso(next) : null,
  };
}

function audit(trx: Executor, actor: Actor, action: string, row: { id: string; projectId: string | null }, metadata: Record<string, unknown> = {}) {
  return writeAudit(trx, {
    orgId: actor.org.id,
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    action,
    category: "project",
    severity: action.endsWith(".deleted") ? "warning" : "info",
    targetType: "scheduled_export",
    targetId: row.id,
    ip: actor.ip,
    userAgent: actor.userAgent,
    metadata: { projectId: row.projectId, ...metadata },
  });
}

/** Creates a schedule; a webhook schedule's signing secret is returned here (`webhookSecret`) and never again. */
export async function createSchedule(actor: Actor, input: CreateScheduleInput, now = new Date()) {
  requireScheduledExports(actor);
  requireWriter(actor, "Viewers cannot manage scheduled exports");
  const scheduleType = canonicalScheduleType(input.scheduleType)!;
  const defaults: ScheduleFields = {
    projectId: null,
    scheduleType,
    format: input.format,
    cronExpression: null,
    triggerStatus: null,
    scheduledAt: null,
    timezone: input.timezone,
    deliveryMethod: input.deliveryMethod,
    recipients: [],
    webhookUrl: null,
    includeChangelog: false,
    customSubject: null,
    customMessage: null,
    isActive: true,
  };
  const fields = resolveSchedule(defaults, { ...input, scheduleType }, now);
  // An active prd_export approval workflow holds a new schedule like an export: one approval, one schedule.
  if (fields.projectId) {
    const { project } = await requireManage(actor, fields.projectId);
    await gateExport(actor, [{ id: project.id, label: project.name }], `schedule:${fields.format}`);
  } else {
    await gateExport(actor, [{ id: actor.org.id, label: DIGEST_LABEL, type: "organization" }], `schedule:${fields.format}`);
  }
  const secret = fields.deliveryMethod === "webhook" ? newSecret() : null;
  const stamp = nowIso(now);
  const row: ScheduleRow = {
    id: newId(),
    orgId: actor.org.id,
    createdById: actor.user.id,
    ...columns(fields, now),
    webhookSecret: secret ? encrypt(secret) : null,
    lastRunAt: null,
    lastDeliveredContent: null,
    createdAt: stamp,
    updatedAt: stamp,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("scheduledExports").values(row).execute();
    await audit(trx, actor, "scheduled_export.created", row, { scheduleType: row.scheduleType, deliveryMethod: row.deliveryMethod });
  });
  const [out] = await withDetails([row]);
  return { ...out!, ...(secret ? { webhookSecret: secret } : {}) };
}

const TIMING_KEYS = ["scheduleType", "cronExpression", "scheduledAt", "timezone"] as const;

/**
 * Changes a schedule. Its next run is computed again when its timing changes
 * or it is switched on (missed occurrences while paused are not caught up).
 * Switching to webhook delivery makes a signing secret, returned once.
 */
export async function updateSchedule(actor: Actor, id: string, input: UpdateScheduleInput, now = new Date()) {
  requireScheduledExports(actor);
  const { row, secret } = await db.transaction().execute(async (trx) => {
    const current = await loadSchedule(trx, actor, id);
    await requireManageSchedule(actor, current, trx);
    const before: ScheduleFields = scheduleFields(current);
    const scheduleType = input.scheduleType === undefined ? undefined : canonicalScheduleType(input.scheduleType)!;
    const fields = resolveSchedule(before, { ...input, scheduleType }, now);
    const moved = fields.projectId !== current.projectId;
    if (moved) await requireManageSchedule(actor, { projectId: fields.projectId, createdById: current.createdById }, trx);
    const cols = columns(fields, now);
    const retime = TIMING_KEYS.some((k) => fields[k] !== before[k]) || (fields.isActive && !before.isActive);
    if (!retime && fields.isActive) cols.nextRunAt = current.nextRunAt;
    const secret = fields.deliveryMethod === "webhook" && !current.webhookSecret ? newSecret() : null;
    const changes = {
      ...cols,
      webhookSecret: fields.deliveryMethod === "email" ? null : secret ? encrypt(secret) : current.webhookSecret,
      // Another project (or all of them): the next changelog starts afresh.
      ...(moved ? { lastDeliveredContent: null } : {}),
      updatedAt: nowIso(now),
    };
    await trx.updateTable("scheduledExports").set(changes).where("id", "=", id).execute();
    await audit(trx, actor, "scheduled_export.updated", current, {
      fields: Object.keys(input).filter((k) => input[k as keyof UpdateScheduleInput] !== undefined),
    });
    return { row: { ...current, ...changes } as ScheduleRow, secret };
  });
  const [out] = await withDetails([row]);
  return { ...out!, ...(secret ? { webhookSecret: secret } : {}) };
}

export async function deleteSchedule(actor: Actor, id: string) {
  requireScheduledExports(actor);
  await db.transaction().execute(async (trx) => {
    const row = await loadSchedule(trx, actor, id);
    await requireManageSchedule(actor, row, trx);
    await trx.deleteFrom("scheduledExports").where("id", "=", id).execute();
    await audit(trx, actor, "scheduled_export.deleted", row);
  });
}

/** The last 50 delivery log entries, newest first. */
export async function listLogs(actor: Actor, id: string, limit = LOG_LIMIT) {
  requireScheduledExports(actor);
  await loadSchedule(db, actor, id);
  const rows = await db
    .selectFrom("exportDeliveryLogs")
    .selectAll()
    .where("scheduledExportId", "=", id)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(Math.min(limit, LOG_LIMIT))
    .execute();
  return rows.map(presentLog);
}

/** For runs.server: the schedule the caller may run (same rules as changing it). */
export async function scheduleToRun(actor: Actor, id: string) {
  requireScheduledExports(actor);
  const row = await loadSchedule(db, actor, id);
  await requireManageSchedule(actor, row);
  return row;
}

/** Whether the caller may change and run this schedule (the detail page's buttons). */
export async function canManageSchedule(actor: Actor, schedule: { projectId: string | null; createdById: string | null }) {
  try {
    await requireManageSchedule(actor, schedule);
    return true;
  } catch {
    return false;
  }
}

/** Projects the caller may schedule exports of (the create form's choices). */
export async function schedulableProjects(actor: Actor) {
  if (!canWrite(actor)) return [];
  let q = db.selectFrom("projects as p").select(["p.id", "p.name"]).where("p.orgId", "=", actor.org.id);
  if (actor.role === "member") {
    const me = actor.user.id;
    q = q.where((eb) =>
      eb.or([
        eb("p.createdById", "=", me),
        eb("p.assignedToId", "=", me),
        eb.exists(
          eb
            .selectFrom("projectCollaborators as c")
            .select("c.id")
            .whereRef("c.projectId", "=", "p.id")
            .where("c.userId", "=", me)
            .where("c.role", "=", "editor"),
        ),
      ]),
    );
  }
  return q.orderBy("p.name").limit(500).execute();
}
