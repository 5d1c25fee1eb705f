import { canonicalScheduleType } from "./schedule";

/**
 * The schedules pages post every field (they work without JavaScript); only
 * those the chosen schedule type and delivery method use are passed on, so a
 * leftover cron expression does not count against a weekly schedule.
 */
export function scheduleFormInput(values: Record<string, string | undefined>) {
  const type = canonicalScheduleType(values.scheduleType ?? "");
  const method = values.deliveryMethod;
  const used = (yes: boolean, value: string | undefined) => (yes ? (value ?? "") : undefined);
  return {
    projectId: values.projectId,
    scheduleType: values.scheduleType,
    format: values.format,
    timezone: values.timezone,
    deliveryMethod: method,
    cronExpression: used(type === "cron", values.cronExpression),
    triggerStatus: used(type === "on_status_change", values.triggerStatus),
    scheduledAt: used(type === "one_time" || type === "weekly", values.scheduledAt),
    recipients: used(method === "email", values.recipients),
    webhookUrl: used(method === "webhook", values.webhookUrl),
    includeChangelog: values.includeChangelog === "on",
    customSubject: values.customSubject ?? "",
    customMessage: values.customMessage ?? "",
  };
}

/** A schedule as form values (the edit page's defaults); times shown in the schedule's timezone. */
export function scheduleFormValues(s: {
  projectId: string | null;
  scheduleType: string;
  format: string;
  timezone: string;
  deliveryMethod: string;
  cronExpression: string | null;
  triggerStatus: string | null;
  scheduledAtLocal: string;
  recipients: string[];
  webhookUrl: string | null;
  includeChangelog: boolean;
  customSubject: string | null;
  customMessage: string | null;
}): Record<string, string> {
  return {
    projectId: s.projectId ?? "",
    scheduleType: s.scheduleType,
    format: s.format,
    timezone: s.timezone,
    deliveryMethod: s.deliveryMethod,
    cronExpression: s.cronExpression ?? "",
    triggerStatus: s.triggerStatus ?? "",
    scheduledAt: s.scheduledAtLocal,
    recipients: s.recipients.join("\n"),
    webhookUrl: s.webhookUrl ?? "",
    ...(s.includeChangelog ? { includeChangelog: "on" } : {}),
    customSubject: s.customSubject ?? "",
    customMessage: s.customMessage ?? "",
  };
}
