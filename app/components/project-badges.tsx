import { useEffect, useState } from "react";

const STATUS_LABELS: Record<string, string> = {
  DRAFT: "Draft",
  IN_PROGRESS: "In progress",
  READY_FOR_PRD: "Ready for PRD",
  IN_REVIEW: "In review",
  APPROVED: "Approved",
  COMPLETED: "Completed",
  ARCHIVED: "Archived",
};
const STATUS_TONES: Record<string, string> = {
  DRAFT: "",
  IN_PROGRESS: "badge-brand",
  READY_FOR_PRD: "badge-brand",
  IN_REVIEW: "badge-warning",
  APPROVED: "badge-success",
  COMPLETED: "badge-success",
  ARCHIVED: "",
};

export const statusLabel = (s: string) => STATUS_LABELS[s] ?? s;

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge ${STATUS_TONES[status] ?? ""}`}>{statusLabel(status)}</span>;
}

const PRIORITY_TONES: Record<string, string> = { low: "", medium: "badge-brand", high: "badge-warning", urgent: "badge-danger" };

export function PriorityBadge({ priority }: { priority: string | null }) {
  if (!priority) return <span className="muted">—</span>;
  return <span className={`badge ${PRIORITY_TONES[priority] ?? ""}`}>{priority[0]!.toUpperCase() + priority.slice(1)}</span>;
}

const SERVER_DATE_TIME = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/**
 * A date with its time. The server and the first browser render show it in UTC
 * ("1 May 2024, 10:00 UTC"), so hydration matches; once mounted it switches to
 * the reader's own locale and time zone. The full ISO instant is the tooltip.
 */
export function DateTime({ iso }: { iso: string }) {
  const [local, setLocal] = useState<string | null>(null);
  const date = new Date(iso);
  const valid = !Number.isNaN(date.getTime());
  useEffect(() => {
    if (valid) setLocal(new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }));
  }, [iso, valid]);
  if (!valid) return <time>{iso}</time>;
  return (
    <time dateTime={iso} title={date.toISOString()}>
      {local ?? `${SERVER_DATE_TIME.format(date)} UTC`}
    </time>
  );
}

export function RelativeTime({ iso }: { iso: string }) {
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={date.toISOString()}>
      {date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" })}
    </time>
  );
}
