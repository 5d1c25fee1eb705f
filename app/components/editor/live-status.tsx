import type { LiveState, Person } from "./live-provider";

/** Who is here, and whether every change is stored. */
export function LiveStatusBar({
  live,
  me,
  canEdit,
  message,
  versionNumber,
}: {
  live: LiveState;
  me: { id: string };
  canEdit: boolean;
  /** The outcome of the last action (upload, save, AI), shown in the status line so nothing below moves. */
  message: { tone: "success" | "error"; text: string } | null;
  versionNumber: number | null | undefined;
}) {
  const people = dedupe(live.people);
  const status =
    live.error ??
    (live.status === "offline"
      ? "Offline: your changes are kept and sent when the connection is back."
      : live.status === "connecting"
        ? "Reconnecting…"
        : live.unsaved
          ? "Saving…"
          : canEdit
            ? "All changes saved"
            : "Live: you see changes as they are made");
  return (
    <div className="live-status">
      <ul className="presence" aria-label="People on this PRD">
        {people.map((p) => (
          <li key={p.userId} className="presence-person" style={{ borderColor: p.color }} title={`${p.name} is ${p.mode}`}>
            <span className="presence-dot" style={{ background: p.color }} aria-hidden="true" />
            {p.userId === me.id ? `${p.name} (you)` : p.name} <span className="muted">· {p.mode}</span>
          </li>
        ))}
      </ul>
      {message?.tone === "error" ? (
        <span className="live-state is-error" role="alert">
          {message.text}
        </span>
      ) : (
        <span className={live.error ? "live-state is-error" : "live-state"} role="status" aria-live="polite">
          {message ? `${message.text} · ` : ""}
          {status}
          {versionNumber ? ` · version ${versionNumber}` : ""}
        </span>
      )}
      {canEdit ? (
        <a className="btn btn-link btn-sm" href="?edit">
          Edit as Markdown
        </a>
      ) : null}
    </div>
  );
}

function dedupe(people: Person[]) {
  const byUser = new Map<string, Person>();
  for (const p of people) {
    const seen = byUser.get(p.userId);
    if (!seen || (seen.mode === "viewing" && p.mode === "editing")) byUser.set(p.userId, p);
  }
  return [...byUser.values()];
}
