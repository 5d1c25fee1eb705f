import type { Selectable } from "kysely";
import type { ExportDeliveryLogsTable, ScheduledExportsTable } from "#db/schema";
import { db } from "~/db.server";

/** Scheduled exports and their delivery log entries as the API and the pages show them. */

export type ScheduleRow = Selectable<ScheduledExportsTable>;
type LogRow = Selectable<ExportDeliveryLogsTable>;

/** The schedule's own fields (what create and update accept), from its row. */
export function scheduleFields(row: ScheduleRow) {
  return {
    projectId: row.projectId,
    scheduleType: row.scheduleType,
    format: row.format,
    cronExpression: row.cronExpression,
    triggerStatus: row.triggerStatus,
    scheduledAt: row.scheduledAt,
    timezone: row.timezone,
    deliveryMethod: row.deliveryMethod,
    recipients: JSON.parse(row.recipients) as string[],
    webhookUrl: row.webhookUrl,
    includeChangelog: row.includeChangelog === 1,
    customSubject: row.customSubject,
    customMessage: row.customMessage,
    isActive: row.isActive === 1,
  };
}

export function presentSchedule(row: ScheduleRow, extra: { projectName?: string | null; lastDeliveryStatus?: string | null } = {}) {
  const { projectId, ...fields } = scheduleFields(row);
  return {
    id: row.id,
    projectId,
    projectName: extra.projectName ?? null,
    ...fields,
    lastRunAt: row.lastRunAt,
    nextRunAt: row.nextRunAt,
    lastDeliveryStatus: (extra.lastDeliveryStatus ?? null) as LogRow["status"] | null,
    createdById: row.createdById,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type ScheduleOut = ReturnType<typeof presentSchedule>;

export function presentLog(row: LogRow) {
  return {
    id: row.id,
    scheduledExportId: row.scheduledExportId,
    runId: row.runId,
    status: row.status,
    deliveryMethod: row.deliveryMethod,
    recipients: JSON.parse(row.recipients) as string[],
    error: row.error,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
export type LogOut = ReturnType<typeof presentLog>;

/** Presents rows with their project's name and the status of their latest delivery (one query). */
export async function withDetails(rows: ScheduleRow[]) {
  if (!rows.length) return [];
  const details = await db
    .selectFrom("scheduledExports as s")
    .leftJoin("projects as p", "p.id", "s.projectId")
    .select("s.id")
    .select("p.name as projectName")
    .select((eb) =>
      eb
        .selectFrom("exportDeliveryLogs as l")
        .select("l.status")
        .whereRef("l.scheduledExportId", "=", "s.id")
        .orderBy("l.createdAt", "desc")
        .orderBy("l.id", "desc")
        .limit(1)
        .as("lastDeliveryStatus"),
    )
    .where(
      "s.id",
      "in",
      rows.map((r) => r.id),
    )
    .execute();
  const byId = new Map(details.map((d) => [d.id, d]));
  return rows.map((r) => presentSchedule(r, byId.get(r.id)));
}
