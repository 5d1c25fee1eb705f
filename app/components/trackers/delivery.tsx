import { plural } from "~/utils/plural";
/**
 * Delivery of a project's stories in its issue tracker (docs/trackers.md).
 * `DeliveryLine` is the compact line for the project overview; feed it
 * `deliveryProgress(viewer, projectId)` from app/domain/trackers/sync.server.ts.
 */

export type Progress = { total: number; done: number; inProgress: number; open: number };

export const STATE_BADGE = {
  open: { label: "Open", className: "badge" },
  in_progress: { label: "In progress", className: "badge badge-warning" },
  done: { label: "Done", className: "badge badge-success" },
} as const;

export function StateBadge({ state }: { state: keyof typeof STATE_BADGE }) {
  const s = STATE_BADGE[state];
  return <span className={s.className}>{s.label}</span>;
}

const stories = (n: number) => plural(n, "story", "stories");

/** "Delivery: 3 of 8 stories done"; nothing when no story has been sent to a tracker. */
export function DeliveryLine({ progress, href }: { progress: Progress | null; href?: string }) {
  if (!progress || progress.total === 0) return null;
  const text = `Delivery: ${progress.done} of ${stories(progress.total)} done`;
  return <p className="muted delivery-line">{href ? <a href={href}>{text}</a> : text}</p>;
}

/** The progress bar with its numbers in words (the bar is labelled by them). */
export function DeliveryBar({ progress }: { progress: Progress }) {
  return (
    <div className="delivery-progress">
      <p id="delivery-progress-label">
        <strong>
          {progress.done} of {stories(progress.total)} done
        </strong>
        <span className="muted">
          {" "}
          · {progress.inProgress} in progress · {progress.open} open
        </span>
      </p>
      <progress aria-labelledby="delivery-progress-label" max={Math.max(progress.total, 1)} value={progress.done} />
    </div>
  );
}
