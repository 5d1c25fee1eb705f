import { PostButton } from "~/components/post-button";
import { SentStoriesList } from "~/components/trackers/delivery-sections";
import type { SentStory } from "~/domain/trackers/delivery-sections.server";
import { LastGoodNote } from "./run-error";

export interface OutputItem {
  id: string;
  title: string;
  html: string;
  content: string;
  kind?: string;
  model: string;
  truncated: boolean;
  createdAt: string;
  createdBy: { name: string | null } | null;
}

/** Where a saved result is on the page, for a failed run's "still on this page" link. */
export const outputAnchor = (id: string) => `output-${id}`;

/** The newest saved result of a kind: what a failed run of that tool leaves on the page. */
export function newestOf(outputs: OutputItem[], kind: string) {
  const o = outputs.find((x) => x.kind === kind);
  return o ? { id: o.id, at: o.createdAt, href: `#${outputAnchor(o.id)}` } : null;
}

/**
 * Saved AI tool results, newest first and open; each can be copied or deleted.
 * `lastGoodIds`: results kept while a newer run of their tool failed (opened, and said so).
 */
export function OutputList({
  outputs,
  canEdit,
  empty,
  lastGoodIds = [],
  trackerHref,
  sentStories,
}: {
  outputs: OutputItem[];
  canEdit: boolean;
  empty: string;
  lastGoodIds?: string[];
  /** Where saved user stories are sent to an issue tracker (docs/trackers.md). */
  trackerHref?: (outputId: string) => string;
  /** Stories of saved user-stories outputs that are in a tracker, by output id (docs/trackers.md, "On the PRD"). */
  sentStories?: Record<string, SentStory[]>;
}) {
  if (!outputs.length) return <p className="muted">{empty}</p>;
  return (
    <div className="output-list">
      {outputs.map((o, i) => (
        <details key={o.id} id={outputAnchor(o.id)} className="card output" open={i === 0 || lastGoodIds.includes(o.id)} data-testid="ai-output">
          <summary>
            {o.title}
            <span className="muted">
              · {new Date(o.createdAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })} · {o.createdBy?.name ?? "—"} ·{" "}
              {o.model === "builtin" ? "offline drafter" : o.model}
            </span>
            {o.truncated ? <span className="badge badge-warning">cut off at the output limit</span> : null}
          </summary>
          {lastGoodIds.includes(o.id) ? <LastGoodNote at={o.createdAt} /> : null}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server (renderMarkdown). */}
          <div className="prose" dangerouslySetInnerHTML={{ __html: o.html }} />
          <SentStoriesList stories={sentStories?.[o.id]} outputId={o.id} />
          {canEdit && trackerHref && o.kind === "user_stories" ? (
            <a href={trackerHref(o.id)} className="btn btn-secondary btn-sm">
              Send these stories to a tracker
            </a>
          ) : null}
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
