/** What the loader sends (exportMenu in app/domain/exports/export.server.ts). */
export interface ExportMenuData {
  formats: { format: string; label: string; enabled: boolean; reason: string | null }[];
  needsApproval: boolean;
}

/**
 * The project page's Export menu: a disclosure with one submit button per
 * format in a plain form (not a Remix <Form>), so the browser downloads the
 * attachment itself, with or without JavaScript. A format turned off for the
 * caller is shown disabled with the reason.
 */
export function ExportMenu({ projectId, menu }: { projectId: string; menu: ExportMenuData }) {
  return (
    <details className="export-menu" style={{ position: "relative" }}>
      <summary className="btn btn-secondary btn-sm" style={{ listStyle: "none", cursor: "pointer" }}>
        Export
      </summary>
      <div
        style={{
          position: "absolute",
          right: 0,
          zIndex: 20,
          marginTop: 6,
          minWidth: 260,
          padding: 10,
          background: "var(--surface, #fff)",
          border: "1px solid var(--border, #ddd)",
          borderRadius: 8,
          boxShadow: "0 8px 24px rgba(0,0,0,0.12)",
        }}
      >
        <form method="post" action={`/projects/${projectId}/export`} aria-label="Export this PRD">
          <p className="muted" style={{ margin: "0 0 6px", fontSize: "0.85rem" }}>
            Download this PRD as
          </p>
          <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {menu.formats.map((f) => (
              <li key={f.format} style={{ marginBottom: 4 }}>
                <button
                  type="submit"
                  name="format"
                  value={f.format}
                  className="btn btn-link"
                  disabled={!f.enabled}
                  aria-describedby={f.reason ? `export-reason-${f.format}` : undefined}
                >
                  {f.label}
                </button>
                {f.reason ? (
                  <span id={`export-reason-${f.format}`} className="muted" style={{ display: "block", fontSize: "0.8rem" }}>
                    {f.reason}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
          {menu.needsApproval ? (
            <p className="muted" style={{ margin: "6px 0 0", fontSize: "0.8rem" }}>
              Exports need approval in this organization: your first export sends a request to the approvers.
            </p>
          ) : null}
        </form>
        <p style={{ margin: "8px 0 0", fontSize: "0.85rem" }}>
          <a href="/exports">Export several projects as a zip</a>
        </p>
      </div>
    </details>
  );
}
