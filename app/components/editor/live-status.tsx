import type { LiveState, Person } from "./live-provider";

/** Who is here, whether every change is stored, and the button to save a version now. */
export function LiveStatusBar({ live, me, canEdit, onSaveVersion }: { live: LiveState; me: { id: string }; canEdit: boolean; onSaveVersion: () => void }) {
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
      <span className={live.error ? "live-state is-error" : "live-state"} role="status" aria-live="polite">
        {status}
        {live.version?.versionNumber ? ` · version ${live.version.versionNumber}` : ""}
      </span>
      {canEdit ? (
        <a className="btn btn-link btn-sm" href="?edit">
          Edit as Markdown
        </a>
      ) : null}
      {canEdit ? (
        <button type="button" className="btn btn-secondary btn-sm" onClick={onSaveVersion} title="Save a version now (Ctrl+S)">
          Save version
        </button>
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
