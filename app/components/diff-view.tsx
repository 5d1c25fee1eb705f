import { plural } from "~/utils/plural";

type Line = { type: string; text?: string; count?: number };

/** A line diff: + added, − removed, folded unchanged stretches. */
export function DiffView({ lines }: { lines: Line[] }) {
  if (lines.every((l) => l.type === "unchanged" || l.type === "skipped")) {
    return <p className="muted">No differences.</p>;
  }
  return (
    <div className="diff" role="group" aria-label="Differences">
      {lines.map((l, i) =>
        l.type === "skipped" ? (
          <div key={i} className="skipped">
            … {plural(l.count ?? 0, "unchanged line")} …
          </div>
        ) : (
          <div key={i} className={l.type}>
            <span className="sr-only">{l.type === "added" ? "Added: " : l.type === "removed" ? "Removed: " : ""}</span>
            {l.text}
          </div>
        ),
      )}
    </div>
  );
}
