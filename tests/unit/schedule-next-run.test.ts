import { describe, expect, it } from "vitest";
import {
  canonicalScheduleType,
  canonicalTimeZone,
  cronProblem,
  describeSchedule,
  formatInZone,
  nextRunAt,
  parseDateTime,
  toLocalInput,
  weeklyPattern,
} from "~/domain/scheduled-exports/schedule";
import { changelog, sections } from "~/domain/scheduled-exports/changelog";

/** When scheduled exports run: pure functions, every time in the schedule's IANA timezone. */

const at = (iso: string) => new Date(iso);
const iso = (d: Date | null) => d?.toISOString() ?? null;
const cron = (cronExpression: string, timezone: string) => ({ scheduleType: "cron" as const, cronExpression, scheduledAt: null, timezone });

/** The next `n` occurrences after `from`, each strictly after the one before. */
function series(s: Parameters<typeof nextRunAt>[0], from: Date, n: number) {
  const out: string[] = [];
  let after = from;
  for (let i = 0; i < n; i++) {
    const next = nextRunAt(s, after);
    if (!next) break;
    out.push(next.toISOString());
    after = next;
  }
  return out;
}

describe("cron schedules across daylight-saving changes", () => {
  it("keeps 09:00 in America/New_York when clocks spring forward (13:00 → 13:00 UTC after, 14:00 before)", () => {
    expect(series(cron("0 9 * * *", "America/New_York"), at("2025-03-07T12:00:00Z"), 4)).toEqual([
      "2025-03-07T14:00:00.000Z", // EST, UTC-5
      "2025-03-08T14:00:00.000Z",
      "2025-03-09T13:00:00.000Z", // EDT from 9 March, UTC-4
      "2025-03-10T13:00:00.000Z",
    ]);
  });

  it("keeps 09:00 in America/New_York when clocks fall back (13:00 → 14:00 UTC)", () => {
    expect(series(cron("0 9 * * *", "America/New_York"), at("2025-10-31T12:00:00Z"), 4)).toEqual([
      "2025-10-31T13:00:00.000Z",
      "2025-11-01T13:00:00.000Z",
      "2025-11-02T14:00:00.000Z", // EST from 2 November
      "2025-11-03T14:00:00.000Z",
    ]);
  });

  it("keeps 09:00 in Europe/Berlin across the last Sunday of March and of October", () => {
    expect(series(cron("0 9 * * *", "Europe/Berlin"), at("2025-03-29T00:00:00Z"), 2)).toEqual([
      "2025-03-29T08:00:00.000Z", // CET, UTC+1
      "2025-03-30T07:00:00.000Z", // CEST, UTC+2
    ]);
    expect(series(cron("0 9 * * *", "Europe/Berlin"), at("2025-10-25T00:00:00Z"), 2)).toEqual(["2025-10-25T07:00:00.000Z", "2025-10-26T08:00:00.000Z"]);
  });

  it("runs a time skipped by the change once, right after the gap, and a repeated time once", () => {
    const skipped = series(cron("30 2 * * *", "America/New_York"), at("2025-03-08T12:00:00Z"), 2);
    expect(skipped).toEqual(["2025-03-09T07:00:00.000Z", "2025-03-10T06:30:00.000Z"]); // 03:00 EDT, then 02:30 EDT
    const repeated = series(cron("30 1 * * *", "America/New_York"), at("2025-11-01T12:00:00Z"), 2);
    expect(repeated).toEqual(["2025-11-02T05:30:00.000Z", "2025-11-03T06:30:00.000Z"]);
  });

  it("is strictly after the given instant", () => {
    expect(iso(nextRunAt(cron("0 9 * * *", "UTC"), at("2025-01-01T09:00:00Z")))).toBe("2025-01-02T09:00:00.000Z");
    expect(iso(nextRunAt(cron("0 9 * * *", "UTC"), at("2025-01-01T08:59:59.999Z")))).toBe("2025-01-01T09:00:00.000Z");
  });
});

describe("weekly schedules", () => {
  it("run Mondays at 09:00 local time without a first occurrence", () => {
    const weekly = { scheduleType: "weekly" as const, cronExpression: null, scheduledAt: null, timezone: "America/New_York" };
    // Wednesday 5 March 2025 → Monday 10 March (EDT from the 9th).
    expect(series(weekly, at("2025-03-05T12:00:00Z"), 2)).toEqual(["2025-03-10T13:00:00.000Z", "2025-03-17T13:00:00.000Z"]);
    expect(describeSchedule(weekly)).toBe("Every Monday at 09:00 (America/New_York)");
  });

  it("start at scheduledAt and repeat on its weekday and local time, across the DST change", () => {
    const first = parseDateTime("2025-03-06T16:30", "Europe/Berlin")!; // Thursday 16:30 CET
    expect(first.toISOString()).toBe("2025-03-06T15:30:00.000Z");
    expect(weeklyPattern(first, "Europe/Berlin")).toBe("30 16 * * 4");
    const weekly = { scheduleType: "weekly" as const, cronExpression: null, scheduledAt: first, timezone: "Europe/Berlin" };
    expect(series(weekly, at("2025-03-01T00:00:00Z"), 5)).toEqual([
      "2025-03-06T15:30:00.000Z",
      "2025-03-13T15:30:00.000Z",
      "2025-03-20T15:30:00.000Z",
      "2025-03-27T15:30:00.000Z",
      "2025-04-03T14:30:00.000Z", // still 16:30 in Berlin, now CEST
    ]);
    expect(describeSchedule(weekly)).toBe("Every Thursday at 16:30 (Europe/Berlin)");
  });
});

describe("one-time and status-change schedules", () => {
  it("one_time runs at scheduledAt, then never again", () => {
    const once = { scheduleType: "one_time" as const, cronExpression: null, scheduledAt: "2030-01-01T10:00:00.000Z", timezone: "UTC" };
    expect(iso(nextRunAt(once, at("2029-12-31T00:00:00Z")))).toBe("2030-01-01T10:00:00.000Z");
    expect(nextRunAt(once, at("2030-01-01T10:00:00Z"))).toBeNull();
  });

  it("on_status_change has no time of its own", () => {
    expect(nextRunAt({ scheduleType: "on_status_change", cronExpression: null, scheduledAt: null, timezone: "UTC" }, new Date())).toBeNull();
  });
});

describe("input", () => {
  it("reads both scheduleType vocabularies into the canonical one", () => {
    expect(canonicalScheduleType("weekly_digest")).toBe("weekly");
    expect(canonicalScheduleType("custom_cron")).toBe("cron");
    expect(canonicalScheduleType("CRON")).toBe("cron");
    expect(canonicalScheduleType("one_time")).toBe("one_time");
    expect(canonicalScheduleType("on_status_change")).toBe("on_status_change");
    expect(canonicalScheduleType("daily")).toBeNull();
  });

  it("accepts IANA timezones (canonical spelling) and refuses others", () => {
    expect(canonicalTimeZone("europe/berlin")).toBe("Europe/Berlin");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
    expect(canonicalTimeZone("America/New_York")).toBe("America/New_York");
    for (const bad of ["Mars/Olympus", "+01:00", "", "Europe/Berlin; DROP", "GMT+1:00"]) expect(canonicalTimeZone(bad)).toBeNull();
  });

  it("validates cron expressions: syntax, never-running, too frequent", () => {
    expect(cronProblem("0 9 * * 1", "UTC")).toBeNull();
    expect(cronProblem("*/15 * * * *", "UTC")).toBeNull();
    expect(cronProblem("every monday", "UTC")).toMatch(/Invalid cron expression/);
    expect(cronProblem("61 9 * * *", "UTC")).toMatch(/minute/);
    expect(cronProblem("0 0 9 * * *", "UTC")).toMatch(/five fields/);
    expect(cronProblem("0 9 31 2 *", "UTC")).toBe("This cron expression never runs");
    expect(cronProblem("*/5 9 * * 1", "UTC")).toMatch(/at most every 15 minutes/);
    expect(cronProblem("* * * * *", "UTC")).toMatch(/at most every 15 minutes/);
  });

  it("reads date-times with an offset as instants and without one in the schedule's timezone", () => {
    expect(iso(parseDateTime("2030-03-10T09:00:00Z", "Europe/Berlin"))).toBe("2030-03-10T09:00:00.000Z");
    expect(iso(parseDateTime("2030-03-10T09:00:00+02:00", "UTC"))).toBe("2030-03-10T07:00:00.000Z");
    expect(iso(parseDateTime("2030-03-10T09:00", "America/New_York"))).toBe("2030-03-10T13:00:00.000Z"); // EDT
    expect(iso(parseDateTime("2030-01-10T09:00:45", "America/New_York"))).toBe("2030-01-10T14:00:00.000Z"); // EST, seconds dropped
    // 02:30 does not exist on 9 March 2025 in New York: it moves forward to 03:30 EDT.
    expect(iso(parseDateTime("2025-03-09T02:30", "America/New_York"))).toBe("2025-03-09T07:30:00.000Z");
    for (const bad of ["tomorrow", "2030-02-30T09:00", "2030-13-01T09:00", "2030-01-01"]) expect(parseDateTime(bad, "UTC")).toBeNull();
    expect(toLocalInput("2030-03-10T13:00:00.000Z", "America/New_York")).toBe("2030-03-10T09:00");
    expect(formatInZone("2030-03-10T13:00:00.000Z", "America/New_York")).toBe("Sun 10 Mar 2030, 09:00 (America/New_York)");
  });
});

describe("changelog", () => {
  it("splits markdown into sections by heading, ignoring headings in code", () => {
    const s = sections("Intro text\n# Goals\nShip it\n```\n# not a heading\n```\n## Scope\nAll");
    expect([...s.keys()]).toEqual(["Introduction", "Goals", "Scope"]);
  });

  it("summarises sections added, removed and changed with line counts", () => {
    const before = "# Goals\nShip v1\n# Scope\nWeb only\n# Risks\nNone";
    const after = "# Goals\nShip v2\nOn time\n# Scope\nWeb only\n# Metrics\nNPS 40";
    const c = changelog(before, after);
    expect(c.sectionsChanged).toEqual(["Goals"]);
    expect(c.sectionsAdded).toEqual(["Metrics"]);
    expect(c.sectionsRemoved).toEqual(["Risks"]);
    expect(c.linesAdded).toBe(4);
    expect(c.linesRemoved).toBe(3);
    expect(c.summary).toBe("Changes since the last delivery: 1 section changed (Goals); 1 added (Metrics); 1 removed (Risks); +4 / -3 lines.");
    expect(changelog(after, after).summary).toBe("No changes since the last delivery.");
    expect(changelog(null, after).firstDelivery).toBe(true);
  });
});
