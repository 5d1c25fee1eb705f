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

export function RelativeTime({ iso }: { iso: string }) {
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={date.toISOString()}>
      {date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" })}
    </time>
  );
}
