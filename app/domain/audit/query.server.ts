import { z } from "zod/v4";
import { db } from "~/db.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { auditActor, writeAudit } from "./audit.server";
import { toCsv } from "./csv";
import type { Selectable } from "kysely";
import type { AuditLogsTable } from "#db/schema";

const isoDate = z
  .string()
  .trim()
  .refine((v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), {
    message: "Use an ISO date (2024-05-01) or date-time",
  });

/** Query filters shared by the list, summary and export. `from`/`to` are aliases of startDate/endDate. */
export const auditFilterSchema = z.object({
  action: z.string().trim().max(100).optional(),
  severity: z.enum(["info", "warning", "critical"]).optional(),
  category: z.string().trim().max(50).optional(),
  actor: z.string().trim().max(320).optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export type AuditFilters = z.infer<typeof auditFilterSchema>;

export const EXPORT_MAX_ROWS = 10_000;

/** A date-only end bound covers that whole day. */
function bounds(f: AuditFilters) {
  const start = f.startDate ?? f.from;
  const end = f.endDate ?? f.to;
  const startIso = start ? new Date(start).toISOString() : undefined;
  let endIso: string | undefined;
  if (end) {
    const d = new Date(end);
    if (/^\d{4}-\d{2}-\d{2}$/.test(end)) d.setUTCDate(d.getUTCDate() + 1);
    else d.setUTCMilliseconds(d.getUTCMilliseconds() + 1);
    endIso = d.toISOString();
  }
  return { startIso, endIso };
}

function filtered(actor: Actor, f: AuditFilters) {
  requireRole(actor, ADMIN_ROLES, "view the audit log");
  const { startIso, endIso } = bounds(f);
  let q = db.selectFrom("auditLogs").where("orgId", "=", actor.org.id);
  if (f.action) q = f.action.endsWith(".*") ? q.where("action", "like", `${f.action.slice(0, -1)}%`) : q.where("action", "=", f.action);
  if (f.severity) q = q.where("severity", "=", f.severity);
  if (f.category) q = q.where("category", "=", f.category);
  if (f.actor) {
    const who = f.actor;
    q = q.where((eb) => eb.or([eb("actorId", "=", who), eb("actorEmail", "=", who.toLowerCase())]));
  }
  if (startIso) q = q.where("createdAt", ">=", startIso);
  if (endIso) q = q.where("createdAt", "<", endIso);
  return q;
}

type Row = Pick<
  Selectable<AuditLogsTable>,
  "id" | "action" | "category" | "severity" | "actorId" | "actorEmail" | "targetType" | "targetId" | "ip" | "userAgent" | "metadata" | "createdAt"
>;

function publicLog(r: Row) {
  let metadata: Record<string, unknown> = {};
  try {
    metadata = JSON.parse(r.metadata);
  } catch {}
  return {
    id: r.id,
    action: r.action,
    category: r.category,
    severity: r.severity,
    actor: r.actorId || r.actorEmail ? { id: r.actorId, email: r.actorEmail } : null,
    target: r.targetType || r.targetId ? { type: r.targetType, id: r.targetId } : null,
    ip: r.ip,
    userAgent: r.userAgent,
    metadata,
    createdAt: r.createdAt,
  };
}
export type AuditLogEntry = ReturnType<typeof publicLog>;

export async function listAuditLogs(actor: Actor, f: AuditFilters, page: { limit: number; offset: number }) {
  const base = filtered(actor, f);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy("createdAt", "desc").orderBy("id", "desc").limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { logs: rows.map(publicLog), total: Number(count.n), limit: page.limit, offset: page.offset };
}

/**
 * The list for the audit log page: each entry also names the user who acted
 * and the user or project it is about, read in the same query (left joins on
 * the page of rows), so the page shows names and keeps the ids as tooltips.
 * A name is null when the user or project no longer exists. The API keeps the
 * plain entries (listAuditLogs).
 */
export async function listAuditLogsWithNames(actor: Actor, f: AuditFilters, page: { limit: number; offset: number }) {
  const base = filtered(actor, f);
  const rowsPage = base.selectAll().orderBy("createdAt", "desc").orderBy("id", "desc").limit(page.limit).offset(page.offset);
  const [rows, count] = await Promise.all([
    db
      .selectFrom(rowsPage.as("l"))
      .leftJoin("users as actorUser", "actorUser.id", "l.actorId")
      .leftJoin("users as targetUser", (join) => join.onRef("targetUser.id", "=", "l.targetId").on("l.targetType", "=", "user"))
      .leftJoin("projects as targetProject", (join) =>
        join.onRef("targetProject.id", "=", "l.targetId").on("l.targetType", "=", "project").on("targetProject.orgId", "=", actor.org.id),
      )
      .selectAll("l")
      .select(["actorUser.name as actorName", "targetUser.name as targetUserName", "targetProject.name as targetProjectName"])
      .orderBy("l.createdAt", "desc")
      .orderBy("l.id", "desc")
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const logs = rows.map((r) => {
    const log = publicLog(r);
    return {
      ...log,
      actor: log.actor ? { ...log.actor, name: r.actorName ?? null } : null,
      target: log.target ? { ...log.target, name: r.targetUserName ?? r.targetProjectName ?? null } : null,
    };
  });
  return { logs, total: Number(count.n), limit: page.limit, offset: page.offset };
}

async function countBy(actor: Actor, f: AuditFilters, column: "category" | "severity" | "action") {
  const rows = await filtered(actor, f)
    .select([column, (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy(column)
    .execute();
  return Object.fromEntries(rows.map((r) => [(r as Record<string, unknown>)[column] as string, Number(r.n)]));
}

export async function summarizeAuditLogs(actor: Actor, f: AuditFilters) {
  const [byCategory, bySeverity, byAction, days] = await Promise.all([
    countBy(actor, f, "category"),
    countBy(actor, f, "severity"),
    countBy(actor, f, "action"),
    filtered(actor, f)
      .select((eb) => [eb.fn<string>("substr", ["createdAt", eb.val(1), eb.val(10)]).as("day"), eb.fn.countAll<number>().as("n")])
      .groupBy("day")
      .orderBy("day")
      .execute(),
  ]);
  const total = Object.values(bySeverity).reduce((a, b) => a + b, 0);
  return { total, byCategory, bySeverity, byAction, byDay: days.map((d) => ({ date: d.day, count: Number(d.n) })) };
}

const CSV_HEADER = ["createdAt", "action", "category", "severity", "actorId", "actorEmail", "targetType", "targetId", "ip", "userAgent", "metadata"];

/** The filtered log as a file (newest first, at most EXPORT_MAX_ROWS rows); the export itself is audited. */
export async function exportAuditLogs(actor: Actor, f: AuditFilters, format: "csv" | "json") {
  const rows = await filtered(actor, f).selectAll().orderBy("createdAt", "desc").orderBy("id", "desc").limit(EXPORT_MAX_ROWS).execute();
  await writeAudit(db, {
    ...auditActor(actor),
    action: "audit_log.exported",
    category: "security",
    severity: "warning",
    metadata: { format, rows: rows.length, filters: f },
  });
  const stamp = new Date().toISOString().slice(0, 10);
  if (format === "json") {
    const body = Buffer.from(JSON.stringify({ logs: rows.map(publicLog), total: rows.length }, null, 2));
    return { filename: `audit-log-${stamp}.json`, contentType: "application/json; charset=utf-8", body };
  }
  const csv = toCsv(
    CSV_HEADER,
    rows.map((r) => [r.createdAt, r.action, r.category, r.severity, r.actorId, r.actorEmail, r.targetType, r.targetId, r.ip, r.userAgent, r.metadata]),
  );
  return { filename: `audit-log-${stamp}.csv`, contentType: "text/csv; charset=utf-8", body: Buffer.from(csv) };
}
