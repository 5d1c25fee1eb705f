import { PostButton } from "~/components/post-button";

export interface OutputItem {
  id: string;
  title: string;
  html: string;
  content: string;
  model: string;
  truncated: boolean;
  createdAt: string;
  createdBy: { name: string | null } | null;
}

/** Saved AI tool results, newest first and open; each can be copied or deleted. */
export function OutputList({ outputs, canEdit, empty }: { outputs: OutputItem[]; canEdit: boolean; empty: string }) {
  if (!outputs.length) return <p className="muted">{empty}</p>;
  return (
    <div className="output-list">
      {outputs.map((o, i) => (
        <details key={o.id} className="card output" open={i === 0} data-testid="ai-output">
          <summary>
            {o.title}
            <span className="muted">
              · {new Date(o.createdAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })} · {o.createdBy?.name ?? "—"} ·{" "}
              {o.model === "builtin" ? "offline drafter" : o.model}
            </span>
            {o.truncated ? <span className="badge badge-warning">cut off at the output limit</span> : null}
          </summary>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server (renderMarkdown). */}
          <div className="prose" dangerouslySetInnerHTML={{ __html: o.html }} />
          {canEdit ? (
            <PostButton intent="delete-output" fields={{ outputId: o.id }} label={`Delete ${o.title}`} className="btn btn-danger btn-sm">
              Delete
            </PostButton>
          ) : null}
        </details>
      ))}
    </div>
  );
}
