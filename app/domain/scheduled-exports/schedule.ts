import { Cron } from "croner";
import type { ScheduleType } from "#db/schema";

/**
 * When a scheduled export runs (pure: no database, no clock of its own).
 * Every time is computed in the schedule's IANA timezone, so "09:00" stays
 * 09:00 local time across daylight-saving changes.
 */

export const SCHEDULE_TYPES = ["weekly", "on_status_change", "cron", "one_time"] as const satisfies readonly ScheduleType[];
/** The second vocabulary of the spec, stored and answered as its canonical name. */
export const SCHEDULE_TYPE_ALIASES: Record<string, ScheduleType> = { weekly_digest: "weekly", custom_cron: "cron" };
/** Every value the API accepts (both vocabularies of the spec), as a literal list for z.enum. */
export const ACCEPTED_SCHEDULE_TYPES = ["weekly", "weekly_digest", "on_status_change", "cron", "custom_cron", "one_time"] as const;
export type ScheduleTypeInput = (typeof ACCEPTED_SCHEDULE_TYPES)[number];

/** How a schedule without a project (a digest of every project the creator can read) is named. */
export const DIGEST_LABEL = "All projects (digest)";

/** A weekly schedule without a first occurrence runs Mondays at 09:00 in its timezone. */
export const DEFAULT_WEEKLY_PATTERN = "0 9 * * 1";
/** Cron schedules may not run more often than this. */
export const MIN_CRON_INTERVAL_MINUTES = 15;

export interface ScheduleTiming {
  scheduleType: ScheduleType;
  cronExpression: string | null;
  /** UTC ISO string or Date. */
  scheduledAt: string | Date | null;
  timezone: string;
}

export function canonicalScheduleType(value: string): ScheduleType | null {
  const v = value.trim().toLowerCase();
  if ((SCHEDULE_TYPES as readonly string[]).includes(v)) return v as ScheduleType;
  return SCHEDULE_TYPE_ALIASES[v] ?? null;
}

/** The canonical name of a valid IANA timezone ("europe/berlin" → "Europe/Berlin"), or null. UTC offsets are refused. */
export function canonicalTimeZone(value: string): string | null {
  const tz = value.trim();
  if (!tz || tz.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string) {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      weekday: "short",
    });
    formatters.set(tz, f);
  }
  return f;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The wall-clock fields of an instant in `tz` (month 1-12, weekday 0 = Sunday). */
export function zonedParts(date: Date, tz: string) {
  const parts: Record<string, string> = {};
  for (const p of formatter(tz).formatToParts(date)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ""),
  };
}

/** Offset of `tz` from UTC at an instant, in ms (Berlin in winter: +3,600,000). */
function offsetMs(instant: number, tz: string) {
  const p = zonedParts(new Date(instant), tz);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant of a wall-clock time in `tz`. A time skipped by a
 * daylight-saving change moves forward by the change (02:30 → 03:30); a time
 * that occurs twice means its first occurrence.
 */
export function zonedTimeToUtc(fields: { year: number; month: number; day: number; hour: number; minute: number; second?: number }, tz: string): Date {
  const guess = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second ?? 0);
  const first = guess - offsetMs(guess, tz);
  const second = guess - offsetMs(first, tz);
  const matches = (t: number) => {
    const p = zonedParts(new Date(t), tz);
    return p.hour === fields.hour && p.minute === fields.minute && p.day === fields.day;
  };
  const exact = [first, second].filter(matches);
  return new Date(exact.length ? Math.min(...exact) : Math.max(first, second));
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 date-time: with `Z` or an offset it is that instant; without,
 * a wall-clock time in `tz` (what a datetime-local form field sends).
 * Seconds are dropped (schedules have minute precision). Null when invalid.
 */
export function parseDateTime(value: string, tz: string): Date | null {
  const m = DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as number[];
  if (month! < 1 || month! > 12 || day! < 1 || hour! > 23 || minute! > 59 || second! > 59) return null;
  const probe = new Date(Date.UTC(year!, month! - 1, day!));
  if (probe.getUTCDate() !== day) return null;
  let date: Date;
  if (m[7]) {
    date = new Date(value.trim().replace(" ", "T"));
    if (Number.isNaN(date.getTime())) return null;
  } else {
    date = zonedTimeToUtc({ year: year!, month: month!, day: day!, hour: hour!, minute: minute! }, tz);
  }
  date.setUTCSeconds(0, 0);
  return date;
}

function cron(pattern: string, tz: string) {
  return new Cron(pattern, { timezone: tz, paused: true, mode: "5-part" });
}

/** Why a cron expression cannot be used (syntax, never runs, too frequent), or null. */
export function cronProblem(expression: string, tz: string, from = new Date()): string | null {
  const fields = 'five fields: minute hour day-of-month month day-of-week (e.g. "0 9 * * 1")';
  const trimmed = expression.trim();
  if (!trimmed.startsWith("@") && trimmed.split(/\s+/).length !== 5) return `Invalid cron expression: use ${fields}`;
  let job: Cron;
  try {
    job = cron(trimmed, tz);
  } catch (error) {
    const message = (error as Error).message.replace(/^CronPattern:\s*/, "").replace(/\.+$/, "");
    return `Invalid cron expression: ${message}. Use ${fields}`;
  }
  const runs = job.nextRuns(60, from);
  if (!runs.length) return "This cron expression never runs";
  for (let i = 1; i < runs.length; i++) {
    if (runs[i]!.getTime() - runs[i - 1]!.getTime() < MIN_CRON_INTERVAL_MINUTES * 60_000) {
      return `Scheduled exports run at most every ${MIN_CRON_INTERVAL_MINUTES} minutes; this expression runs more often`;
    }
  }
  return null;
}

/** The cron pattern of a weekly schedule: the weekday and time of its first occurrence, or Mondays 09:00. */
export function weeklyPattern(scheduledAt: Date | null, tz: string) {
  if (!scheduledAt) return DEFAULT_WEEKLY_PATTERN;
  const p = zonedParts(scheduledAt, tz);
  return `${p.minute} ${p.hour} * * ${p.weekday}`;
}

const asDate = (v: string | Date | null) => (v === null ? null : v instanceof Date ? v : new Date(v));

/** The first occurrence strictly after `after`, or null (status-triggered, or a one-time run already past). */
export function nextRunAt(s: ScheduleTiming, after: Date): Date | null {
  const at = asDate(s.scheduledAt);
  switch (s.scheduleType) {
    case "on_status_change":
      return null;
    case "one_time":
      return at && at.getTime() > after.getTime() ? at : null;
    case "cron":
      return s.cronExpression ? cron(s.cronExpression, s.timezone).nextRun(after) : null;
    case "weekly":
      if (at && at.getTime() > after.getTime()) return at;
      return cron(weeklyPattern(at, s.timezone), s.timezone).nextRun(after);
  }
}

const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const pad = (n: number) => String(n).padStart(2, "0");

/** "Every Monday at 09:00 (Europe/Berlin)", "When the status becomes APPROVED", ... */
export function describeSchedule(s: ScheduleTiming & { triggerStatus?: string | null }) {
  const at = asDate(s.scheduledAt);
  switch (s.scheduleType) {
    case "weekly": {
      const p = at ? zonedParts(at, s.timezone) : { weekday: 1, hour: 9, minute: 0 };
      return `Every ${DAY_NAMES[p.weekday]} at ${pad(p.hour)}:${pad(p.minute)} (${s.timezone})`;
    }
    case "cron":
      return `Cron “${s.cronExpression}” (${s.timezone})`;
    case "one_time":
      return at ? `Once, on ${formatInZone(at, s.timezone)}` : "Once";
    case "on_status_change":
      return `When the project status becomes ${s.triggerStatus ?? "?"}`;
  }
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Mon 10 Mar 2025, 09:00 (Europe/Berlin)" (built by hand: ICU versions differ in punctuation). */
export function formatInZone(date: Date | string, tz: string) {
  const p = zonedParts(asDate(date)!, tz);
  return `${WEEKDAYS[p.weekday]} ${p.day} ${MONTHS[p.month - 1]} ${p.year}, ${pad(p.hour)}:${pad(p.minute)} (${tz})`;
}

/** The wall-clock value of an instant for a datetime-local field ("2025-03-10T09:00"). */
export function toLocalInput(date: Date | string | null, tz: string) {
  const d = asDate(date);
  if (!d) return "";
  const p = zonedParts(d, tz);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}
