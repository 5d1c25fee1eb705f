/** Day buckets (UTC, YYYY-MM-DD) shared by the dashboard and the usage analytics. */

export const DAY_MS = 86_400_000;

/** ISO timestamp of the start (00:00 UTC) of the first of the last `days` days, today included. */
export function sinceIso(days: number, now = Date.now()) {
  const today = new Date(new Date(now).toISOString().slice(0, 10)).getTime();
  return new Date(today - (days - 1) * DAY_MS).toISOString();
}

/** The last `days` dates, oldest first. */
export function dayKeys(days: number, now = Date.now()) {
  const start = new Date(sinceIso(days, now)).getTime();
  return Array.from({ length: days }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

/** Fills every day of the period, missing days with `empty()`. */
export function fillDays<T extends object>(days: number, rows: Map<string, T>, empty: () => T) {
  return dayKeys(days).map((date) => ({ date, ...(rows.get(date) ?? empty()) }));
}
