import { type FormEvent, useRef, useState } from "react";
import { StatusBadge } from "~/components/project-badges";
import { formatBytes } from "~/utils/format";
import { useHydrated } from "remix-utils/use-hydrated";
import { plural } from "~/utils/plural";

export interface BulkProject {
  id: string;
  name: string;
  status: string;
}
export interface BulkFormatOption {
  value: string;
  label: string;
  hint: string;
  enabled: boolean;
  reason: string | null;
}

type Phase =
  | { kind: "idle" }
  | { kind: "preparing"; count: number }
  | { kind: "downloading"; count: number; received: number }
  | { kind: "done"; filename: string; size: number }
  | { kind: "held" | "error"; message: string };

const filenameOf = (disposition: string | null) => /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? "prd-export.zip";

/**
 * The bulk export form. Without JavaScript it is a plain POST to
 * /exports/download and the browser saves the zip. With JavaScript the same
 * form is sent with fetch: the page says "Preparing N projects…", counts the
 * bytes as the streamed zip arrives, then hands the file to the browser.
 */
export function BulkExportForm({
  projects,
  selected,
  format,
  formats,
  max,
}: {
  projects: BulkProject[];
  selected: string[];
  format: string;
  formats: BulkFormatOption[];
  max: number;
}) {
  const form = useRef<HTMLFormElement>(null);
  const [count, setCount] = useState(() => projects.filter((p) => selected.includes(p.id)).length);
  const [filter, setFilter] = useState("");
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  // The live filter keeps hidden choices checked; it exists only once the script runs (the search above works without it).
  const hydrated = useHydrated();
  const busy = phase.kind === "preparing" || phase.kind === "downloading";
  const tooMany = count > max;

  const recount = () => setCount(form.current?.querySelectorAll('input[name="projectIds"]:checked').length ?? 0);

  async function submit(event: FormEvent<HTMLFormElement>) {
    const el = event.currentTarget;
    const data = new FormData(el);
    const n = data.getAll("projectIds").length;
    if (n === 0 || n > max) return; // the server answers these too; the counter already explains
    event.preventDefault();
    setPhase({ kind: "preparing", count: n });
    try {
      const res = await fetch(el.action, {
        method: "POST",
        body: new URLSearchParams(data as unknown as Record<string, string>),
        headers: { Accept: "application/json" },
      });
      if (!(res.headers.get("Content-Type") ?? "").includes("application/zip") || !res.body) {
        const body = (await res.json().catch(() => null)) as { error?: string; code?: string } | null;
        const message = body?.error ?? `The export failed (HTTP ${res.status}).`;
        return setPhase({ kind: body?.code === "APPROVAL_REQUIRED" ? "held" : "error", message });
      }
      const reader = res.body.getReader();
      const chunks: Uint8Array[] = [];
      let received = 0;
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        chunks.push(r.value);
        received += r.value.byteLength;
        setPhase({ kind: "downloading", count: n, received });
      }
      const filename = filenameOf(res.headers.get("Content-Disposition"));
      const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: "application/zip" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = filename;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
      setPhase({ kind: "done", filename, size: received });
    } catch {
      setPhase({ kind: "error", message: "The download was interrupted. Check your connection and try again." });
    }
  }

  const needle = filter.trim().toLowerCase();
  return (
    <form ref={form} method="post" action="/exports/download" className="form" onSubmit={submit} onChange={recount} onReset={() => setTimeout(recount)}>
      <fieldset>
        <legend>Projects (choose up to {max})</legend>
        {hydrated ? (
          <div className="field">
            <label htmlFor="bulk-filter">Filter this list</label>
            <input
              id="bulk-filter"
              type="search"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              placeholder="Type part of a name; your choices stay selected"
            />
          </div>
        ) : null}
        <ul style={{ listStyle: "none", margin: 0, padding: 0, maxHeight: 420, overflowY: "auto" }}>
          {projects.map((p) => (
            <li key={p.id} hidden={!!needle && !p.name.toLowerCase().includes(needle)}>
              <label className="checkbox">
                <input type="checkbox" name="projectIds" value={p.id} defaultChecked={selected.includes(p.id)} />
                {p.name} <StatusBadge status={p.status} />
              </label>
            </li>
          ))}
        </ul>
        <p id="bulk-count" className={tooMany ? "alert alert-error" : "muted"} role={tooMany ? "alert" : undefined}>
          {tooMany
            ? `You chose ${plural(count, "project")}; a zip takes at most ${max}. Unselect ${count - max} to continue.`
            : `${count} of at most ${max} selected.`}
        </p>
      </fieldset>
      <fieldset>
        <legend>Format</legend>
        {formats.map((f) => (
          <div key={f.value}>
            <label className="checkbox" style={{ paddingBottom: 2 }}>
              <input
                type="radio"
                name="format"
                value={f.value}
                defaultChecked={f.value === format}
                disabled={!f.enabled}
                aria-describedby={`format-${f.value}-hint`}
              />
              {f.label}
            </label>
            <span id={`format-${f.value}-hint`} className="muted" style={{ display: "block", fontSize: "0.85rem", marginBottom: 8 }}>
              {f.reason ?? f.hint}
            </span>
          </div>
        ))}
      </fieldset>
      <div className="form-row" style={{ justifyContent: "flex-start" }}>
        <button type="submit" className="btn" disabled={busy || tooMany} aria-busy={busy || undefined}>
          {busy ? "Preparing…" : "Download zip"}
        </button>
        <button type="reset" className="btn btn-secondary">
          Clear selection
        </button>
      </div>
      <div role="status" aria-live="polite">
        {phase.kind === "preparing" ? (
          <p>
            Preparing {plural(phase.count, "project")}… <progress aria-label="Preparing the zip" />
          </p>
        ) : phase.kind === "downloading" ? (
          <p>
            Building the zip of {plural(phase.count, "project")}: {formatBytes(phase.received)} received… <progress aria-label="Downloading the zip" />
          </p>
        ) : phase.kind === "done" ? (
          <p className="alert alert-success">
            Downloaded {phase.filename} ({formatBytes(phase.size)}).
          </p>
        ) : phase.kind === "held" ? (
          <p className="alert alert-info">{phase.message}</p>
        ) : phase.kind === "error" ? (
          <p className="alert alert-error">{phase.message}</p>
        ) : null}
      </div>
    </form>
  );
}
