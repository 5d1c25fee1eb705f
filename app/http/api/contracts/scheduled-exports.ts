// Contracts of this area. Each exported contract is picked up by ./index.ts.
import { z } from "zod/v4";
import {
  createScheduleSchema,
  deliveryMethodEnum,
  formatEnum,
  listSchedulesQuery,
  scheduleTypeEnum,
  updateScheduleSchema,
} from "~/domain/scheduled-exports/scheduled-exports.schema";
import { contract } from "../contract";
import { success } from "./shapes";

const tag = "Scheduled exports";
const params = z.object({ exportId: z.string() });
const status = z.enum(["pending", "delivered", "failed"]);

const scheduleShape = z.object({
  id: z.string(),
  projectId: z.string().nullable(),
  projectName: z.string().nullable(),
  scheduleType: z.enum(["weekly", "on_status_change", "cron", "one_time"]),
  format: z.enum(["pdf", "html", "docx", "markdown"]),
  cronExpression: z.string().nullable(),
  triggerStatus: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  timezone: z.string(),
  deliveryMethod: z.enum(["email", "webhook"]),
  recipients: z.array(z.string()),
  webhookUrl: z.string().nullable(),
  includeChangelog: z.boolean(),
  customSubject: z.string().nullable(),
  customMessage: z.string().nullable(),
  isActive: z.boolean(),
  lastRunAt: z.string().nullable(),
  nextRunAt: z.string().nullable(),
  lastDeliveryStatus: status.nullable(),
  createdById: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const withSecret = scheduleShape.extend({ webhookSecret: z.string().optional() });

/**
 * Request bodies with scheduleType, format and deliveryMethod as plain
 * z.enum (no transform or pipe), so /api/openapi.json lists their values.
 * scheduleType takes both vocabularies; the canonical name is stored.
 */
const createBody = createScheduleSchema.extend({ scheduleType: scheduleTypeEnum, format: formatEnum, deliveryMethod: deliveryMethodEnum });
const updateBody = updateScheduleSchema.extend({
  scheduleType: scheduleTypeEnum.optional(),
  format: formatEnum.optional(),
  deliveryMethod: deliveryMethodEnum.optional(),
});

const logShape = z.object({
  id: z.string(),
  scheduledExportId: z.string(),
  runId: z.string().nullable(),
  status,
  deliveryMethod: z.enum(["email", "webhook"]),
  recipients: z.array(z.string()),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const rules = [
  "scheduleType accepts both vocabularies (`weekly`/`weekly_digest`, `cron`/`custom_cron`, `on_status_change`, `one_time`); the canonical name is stored and returned.",
  "`projectId` is optional: with it, the PRD of that project; without it (absent, null or empty), a digest of every project the schedule's creator can read when it runs (archived ones left out; another organization's never), delivered as one zip with a PDF/HTML/DOCX/Markdown file per project and a README.txt listing each with its status and, with `includeChangelog`, its changes since the last delivery (at most 100 projects and 15 MB of files). A digest cannot be `on_status_change`. Owners, admins and members may create one; owners, admins and its creator change, run or delete it; viewers do not see digests. `timezone` is an IANA name; every time is computed in it (09:00 stays 09:00 across daylight-saving changes).",
  "weekly: every 7 days at the weekday and time of `scheduledAt` (its first occurrence), Mondays 09:00 without it. cron: `cronExpression` with five fields, at most every 15 minutes. one_time: `scheduledAt` in the future. on_status_change: `triggerStatus`, a project status.",
  "`scheduledAt` without `Z` or an offset is read in `timezone`.",
  'email: 1 to 20 `recipients`, the file attached, `customSubject` and `customMessage` used. webhook: `webhookUrl` (private and loopback targets refused unless ALLOW_PRIVATE_WEBHOOK_TARGETS=true); the body is signed (hex HMAC-SHA256 in `x-webhook-signature`) with `webhookSecret`, returned once; a digest\'s body adds `scope: "organization"` and `projects` (id, name, status, file or note, changelog).',
].join("\n\n");

export const listScheduledExports = contract({
  method: "GET",
  path: "/api/scheduled-exports",
  tag,
  summary: "Scheduled exports of the organization (optionally of one project)",
  description:
    "Viewers see the schedules of projects shared with them; other roles also see the organization's digests (`projectId: null`, `projectName: null`). `lastDeliveryStatus` is the status of the latest delivery log entry.",
  auth: "user",
  plan: "pro",
  query: listSchedulesQuery,
  response: z.object({ schedules: z.array(scheduleShape) }),
  errors: ["PLAN_UPGRADE_REQUIRED", "NOT_FOUND"],
});

export const createScheduledExport = contract({
  method: "POST",
  path: "/api/scheduled-exports",
  tag,
  summary: "Schedule an export of a project's PRD, or a digest of every project, delivered by e-mail or webhook",
  description: `${rules}\n\nOwners and admins, or members who can edit the project (any member for a digest). \`nextRunAt\` is computed at once.`,
  heldBy: "prd_export",
  auth: "user",
  plan: "pro",
  body: createBody,
  successStatus: 201,
  response: z.object({ schedule: withSecret }),
  errors: ["VALIDATION_ERROR", "PLAN_UPGRADE_REQUIRED", "FORBIDDEN", "NOT_FOUND"],
});

export const getScheduledExport = contract({
  method: "GET",
  path: "/api/scheduled-exports/{exportId}",
  tag,
  summary: "One scheduled export",
  auth: "user",
  plan: "pro",
  params,
  response: z.object({ schedule: scheduleShape }),
  errors: ["PLAN_UPGRADE_REQUIRED", "NOT_FOUND"],
});

export const updateScheduledExport = contract({
  method: "PATCH",
  path: "/api/scheduled-exports/{exportId}",
  tag,
  summary: "Change a scheduled export, pause it (isActive false) or resume it",
  description: `Any create field. Fields the new type or method does not use are cleared. \`nextRunAt\` is computed again when the timing changes or the schedule is resumed (occurrences missed while paused are not caught up). Switching to webhook delivery returns a new \`webhookSecret\` once.\n\n${rules}`,
  auth: "user",
  plan: "pro",
  params,
  body: updateBody,
  response: z.object({ schedule: withSecret }),
  errors: ["VALIDATION_ERROR", "PLAN_UPGRADE_REQUIRED", "FORBIDDEN", "NOT_FOUND"],
});

export const deleteScheduledExport = contract({
  method: "DELETE",
  path: "/api/scheduled-exports/{exportId}",
  tag,
  summary: "Delete a scheduled export with its delivery log",
  auth: "user",
  plan: "pro",
  params,
  response: success,
  errors: ["PLAN_UPGRADE_REQUIRED", "FORBIDDEN", "NOT_FOUND"],
});

const runResponse = z.object({ runId: z.string(), log: logShape });
const runDescription =
  "Runs the export now, whatever its schedule (also while paused). Answers 202 with the new delivery log entry (`pending`); the job worker renders and delivers within seconds, retrying failures with backoff (6 attempts), and the entry ends `delivered` or `failed` with the error (GET …/logs). 409 while another manual run of this export is still pending.";

export const triggerScheduledExport = contract({
  method: "POST",
  path: "/api/scheduled-exports/{exportId}/trigger",
  tag,
  summary: "Run a scheduled export immediately",
  description: runDescription,
  auth: "user",
  plan: "pro",
  params,
  successStatus: 202,
  response: runResponse,
  errors: ["PLAN_UPGRADE_REQUIRED", "FORBIDDEN", "NOT_FOUND", "CONFLICT"],
});

export const runScheduledExport = contract({
  method: "POST",
  path: "/api/scheduled-exports/{exportId}/run",
  tag,
  summary: "Run a scheduled export immediately (deprecated: use …/trigger)",
  description: `${runDescription}\n\nSame as POST /api/scheduled-exports/{exportId}/trigger; answers with \`Deprecation: true\` and \`Link: </api/scheduled-exports/{exportId}/trigger>; rel="successor-version"\`.`,
  auth: "user",
  plan: "pro",
  params,
  successStatus: 202,
  response: runResponse,
  errors: ["PLAN_UPGRADE_REQUIRED", "FORBIDDEN", "NOT_FOUND", "CONFLICT"],
  deprecated: { successor: "/api/scheduled-exports/{exportId}/trigger" },
});

export const listScheduledExportLogs = contract({
  method: "GET",
  path: "/api/scheduled-exports/{exportId}/logs",
  tag,
  summary: "Delivery log of a scheduled export (last 50, newest first)",
  description:
    "Status `pending` (running or waiting for a retry; `error` holds the latest failed attempt), `delivered` or `failed` (with `error`). `recipients`: the e-mail addresses, or the webhook URL.",
  auth: "user",
  plan: "pro",
  params,
  response: z.object({ logs: z.array(logShape) }),
  errors: ["PLAN_UPGRADE_REQUIRED", "NOT_FOUND"],
});
