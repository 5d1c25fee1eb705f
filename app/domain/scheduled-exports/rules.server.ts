import type { ExportFileFormat, ScheduleType } from "#db/schema";
import { AppError, type ErrorDetail } from "../errors";
import { PROJECT_STATUSES, type ProjectStatus } from "../projects/projects.schema";
import { literalHostProblem } from "../webhooks/address.server";
import { canonicalTimeZone, cronProblem, parseDateTime } from "./schedule";

/**
 * The rules between the fields of a scheduled export: what each schedule
 * type and delivery method needs, and what it must not be given. Every
 * problem is reported at once, each naming its field.
 */

export interface ScheduleFields {
  projectId: string | null;
  scheduleType: ScheduleType;
  format: ExportFileFormat;
  cronExpression: string | null;
  triggerStatus: string | null;
  /** As given (ISO 8601, with or without offset) or as stored (UTC ISO). */
  scheduledAt: string | null;
  timezone: string;
  deliveryMethod: "email" | "webhook";
  recipients: string[];
  webhookUrl: string | null;
  includeChangelog: boolean;
  customSubject: string | null;
  customMessage: string | null;
  isActive: boolean;
}

/** Fields each schedule type uses; others are cleared (stored) or refused (given). */
const TIMING_FIELDS = ["cronExpression", "triggerStatus", "scheduledAt"] as const;
const USES: Record<ScheduleType, readonly (typeof TIMING_FIELDS)[number][]> = {
  weekly: ["scheduledAt"],
  cron: ["cronExpression"],
  one_time: ["scheduledAt"],
  on_status_change: ["triggerStatus"],
};

/**
 * Merges `input` (what the caller sent) over `stored` (the current values,
 * or defaults on create) and checks the result. Values of the stored row the
 * new type or method does not use are cleared; values given for the wrong
 * type or method are refused. A one-time export's date must lie ahead when
 * it is set (a kept one may have run already).
 */
export function resolveSchedule(stored: ScheduleFields, input: Partial<ScheduleFields>, now: Date): ScheduleFields {
  const details: ErrorDetail[] = [];
  const fail = (path: string, message: string) => details.push({ path, message });
  const given = (k: keyof ScheduleFields) => input[k] !== undefined && input[k] !== null && !(Array.isArray(input[k]) && !input[k].length);
  const out: ScheduleFields = { ...stored };
  for (const [k, v] of Object.entries(input)) if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;

  // No project: a digest of every project the creator can read. A status change belongs to one project.
  if (!out.projectId && out.scheduleType === "on_status_change") {
    fail("projectId", "A status-change export follows one project: choose projectId (an export of every project runs weekly, on a cron schedule or once)");
  }

  const tz = canonicalTimeZone(out.timezone);
  if (!tz) fail("timezone", `Unknown timezone “${out.timezone}”: use an IANA name such as Europe/Berlin or America/New_York`);
  else out.timezone = tz;

  for (const field of TIMING_FIELDS) {
    if (USES[out.scheduleType].includes(field)) continue;
    if (given(field)) fail(field, `${field} is not used with scheduleType ${out.scheduleType}`);
    out[field] = null;
  }

  switch (out.scheduleType) {
    case "cron":
      if (!out.cronExpression) fail("cronExpression", 'cronExpression is required for a cron schedule (e.g. "0 9 * * 1")');
      else if (tz) {
        const problem = cronProblem(out.cronExpression, tz, now);
        if (problem) fail("cronExpression", problem);
      }
      break;
    case "on_status_change": {
      const status = out.triggerStatus
        ?.trim()
        .toUpperCase()
        .replace(/[\s-]+/g, "_");
      if (!status) fail("triggerStatus", "triggerStatus is required: the project status that sends the export");
      else if (!PROJECT_STATUSES.includes(status as ProjectStatus)) fail("triggerStatus", `triggerStatus must be one of ${PROJECT_STATUSES.join(", ")}`);
      else out.triggerStatus = status;
      break;
    }
    case "one_time":
      if (!out.scheduledAt) fail("scheduledAt", "scheduledAt is required for a one-time export");
      break;
    case "weekly":
      break;
  }
  if (out.scheduledAt && tz) {
    const at = parseDateTime(out.scheduledAt, tz);
    if (!at) fail("scheduledAt", "scheduledAt must be an ISO 8601 date-time, e.g. 2030-03-10T09:00 (read in the timezone) or 2030-03-10T08:00:00Z");
    else {
      // A one-time export set now (not one kept from before, which may have run already) must lie ahead.
      const setNow = at.toISOString() !== stored.scheduledAt || stored.scheduleType !== "one_time";
      if (out.scheduleType === "one_time" && setNow && at.getTime() <= now.getTime()) fail("scheduledAt", "scheduledAt must be in the future");
      else out.scheduledAt = at.toISOString();
    }
  }

  if (out.deliveryMethod === "email") {
    if (given("webhookUrl")) fail("webhookUrl", "webhookUrl is only used with deliveryMethod webhook");
    out.webhookUrl = null;
    if (!out.recipients.length) fail("recipients", "Add at least one e-mail recipient");
  } else {
    if (given("recipients")) fail("recipients", "recipients are only used with deliveryMethod email");
    out.recipients = [];
    if (!out.webhookUrl) fail("webhookUrl", "webhookUrl is required for webhook delivery");
    else {
      const problem = literalHostProblem(new URL(out.webhookUrl));
      if (problem) fail("webhookUrl", problem);
    }
  }

  if (details.length) {
    throw new AppError("VALIDATION_ERROR", 400, details.length === 1 ? details[0]!.message : "Check the highlighted fields", { details });
  }
  return out;
}
