import { z } from "zod/v4";
import { EXPORT_FORMATS } from "../exports/document";
import { formBoolean } from "../form-fields";
import { ACCEPTED_SCHEDULE_TYPES } from "./schedule";

/**
 * Input of scheduled exports, shared by the API and the schedules pages.
 * These schemas check each field; the rules between fields (what each
 * schedule type and delivery method needs) live in ./rules.server.ts.
 */

export const MAX_RECIPIENTS = 20;
export const DELIVERY_METHODS = ["email", "webhook"] as const;

const emptyToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);
const text = (max: number, what: string) => z.preprocess(emptyToNull, z.string().trim().max(max, `${what} is too long (max ${max} characters)`).nullable());

/**
 * Plain enums (no trimming or case folding), so the OpenAPI document lists
 * their values. scheduleType takes both vocabularies; the domain stores the
 * canonical name (canonicalScheduleType).
 */
const required = (field: string, problem: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `${field} is required` : problem);
export const scheduleTypeEnum = z.enum(ACCEPTED_SCHEDULE_TYPES, {
  error: required("scheduleType", `scheduleType must be one of ${ACCEPTED_SCHEDULE_TYPES.join(", ")}`),
});
export const formatEnum = z.enum(EXPORT_FORMATS, { error: required("format", `format must be one of ${EXPORT_FORMATS.join(", ")}`) });
export const deliveryMethodEnum = z.enum(DELIVERY_METHODS, { error: required("deliveryMethod", "deliveryMethod must be email or webhook") });
const timezone = z
  .string({ error: "timezone is required (an IANA name such as Europe/Berlin)" })
  .trim()
  .min(1, "timezone is required (an IANA name such as Europe/Berlin)")
  .max(64);

/** A list, or one string separated by commas, semicolons or new lines (form fields). */
const recipients = z.preprocess(
  (v) => (typeof v === "string" ? v.split(/[\s,;]+/).filter(Boolean) : v === null ? [] : v),
  z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .pipe(z.email({ error: (i) => `“${String(i.input)}” is not a valid e-mail address` })),
      {
        error: "recipients must be a list of e-mail addresses",
      },
    )
    .max(MAX_RECIPIENTS, `At most ${MAX_RECIPIENTS} recipients`)
    .transform((list) => [...new Set(list)]),
);

const webhookUrl = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .max(2048, "The URL is too long")
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === "https:" || u.protocol === "http:") && u.hostname.length > 0;
      } catch {
        return false;
      }
    }, "Enter a full http:// or https:// URL")
    .nullable(),
);

const fields = {
  /** A project, or null / absent / "" for an organization-wide digest (every project the creator can read). */
  projectId: z.preprocess(emptyToNull, z.string().trim().max(100).nullable()),
  cronExpression: text(200, "cronExpression"),
  triggerStatus: text(40, "triggerStatus"),
  scheduledAt: text(40, "scheduledAt"),
  recipients,
  webhookUrl,
  includeChangelog: formBoolean,
  customSubject: z.preprocess(
    emptyToNull,
    z
      .string()
      .trim()
      .max(200, "The subject is too long (max 200 characters)")
      .regex(/^[^\r\n]*$/, "The subject must be one line")
      .nullable(),
  ),
  customMessage: text(5000, "customMessage"),
  isActive: formBoolean,
};

export const createScheduleSchema = z.object({
  projectId: fields.projectId.optional(),
  scheduleType: scheduleTypeEnum,
  format: formatEnum,
  cronExpression: fields.cronExpression.optional(),
  triggerStatus: fields.triggerStatus.optional(),
  scheduledAt: fields.scheduledAt.optional(),
  timezone,
  deliveryMethod: deliveryMethodEnum,
  recipients: fields.recipients.optional(),
  webhookUrl: fields.webhookUrl.optional(),
  includeChangelog: fields.includeChangelog.default(false),
  customSubject: fields.customSubject.optional(),
  customMessage: fields.customMessage.optional(),
  isActive: fields.isActive.default(true),
});
export type CreateScheduleInput = z.infer<typeof createScheduleSchema>;

export const updateScheduleSchema = z.object({
  projectId: fields.projectId.optional(),
  scheduleType: scheduleTypeEnum.optional(),
  format: formatEnum.optional(),
  cronExpression: fields.cronExpression.optional(),
  triggerStatus: fields.triggerStatus.optional(),
  scheduledAt: fields.scheduledAt.optional(),
  timezone: timezone.optional(),
  deliveryMethod: deliveryMethodEnum.optional(),
  recipients: fields.recipients.optional(),
  webhookUrl: fields.webhookUrl.optional(),
  includeChangelog: fields.includeChangelog.optional(),
  customSubject: fields.customSubject.optional(),
  customMessage: fields.customMessage.optional(),
  isActive: fields.isActive.optional(),
});
export type UpdateScheduleInput = z.infer<typeof updateScheduleSchema>;

export const listSchedulesQuery = z.object({
  projectId: z.string().trim().max(100).optional(),
});
