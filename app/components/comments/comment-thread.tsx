import { RelativeTime } from "../project-badges";
import { ActionButton, CommentForm } from "./comment-form";
import { MentionTextarea } from "./mention-textarea";
import type { CommentView, MentionCandidate } from "./types";

interface Viewer {
  me: string;
  isAdmin: boolean;
  canComment: boolean;
  mentionable: MentionCandidate[];
}

const authorOf = (c: CommentView) => c.user?.name ?? "someone";

function Comment({ comment, viewer }: { comment: CommentView; viewer: Viewer }) {
  const mine = !comment.deleted && comment.user?.id === viewer.me;
  return (
    <div className="comment">
      <div className="comment-meta">
        <strong>{comment.deleted ? "Deleted comment" : (comment.user?.name ?? "Former member")}</strong>{" "}
        <span className="muted">
          <RelativeTime iso={comment.createdAt} />
          {comment.editedAt ? " · edited" : ""}
        </span>
      </div>
      {comment.deleted ? <p className="muted">This comment was deleted.</p> : <p className="comment-body">{comment.content}</p>}
      <div className="inline">
        {mine ? (
          <details className="reply-form">
            <summary>Edit</summary>
            <CommentForm intent="comment-edit" fields={{ commentId: comment.id }}>
              {({ busy }) => (
                <>
                  <label htmlFor={`edit-${comment.id}`} className="sr-only">
                    Edit comment
                  </label>
                  <MentionTextarea
                    id={`edit-${comment.id}`}
                    name="content"
                    rows={2}
                    required
                    maxLength={10000}
                    defaultValue={comment.content}
                    candidates={viewer.mentionable}
                  />
                  <div>
                    <button type="submit" className="btn btn-secondary btn-sm" disabled={busy}>
                      Save
                    </button>
                  </div>
                </>
              )}
            </CommentForm>
          </details>
        ) : null}
        {!comment.deleted && (mine || viewer.isAdmin) ? (
          <ActionButton intent="comment-delete" commentId={comment.id} label={`Delete comment by ${authorOf(comment)}`}>
            Delete
          </ActionButton>
        ) : null}
      </div>
    </div>
  );
}

/** The passage a thread is on, above its first comment. */
function Quote({ anchor }: { anchor: NonNullable<CommentView["anchor"]> }) {
  if (anchor.status === "lost") {
    return (
      <div className="comment-anchor">
        <p className="muted">The passage this comment was on was removed.</p>
        <blockquote className="comment-quote comment-quote-gone">{anchor.quote}</blockquote>
      </div>
    );
  }
  return (
    <div className="comment-anchor">
      <blockquote className={anchor.status === "anchored" ? "comment-quote" : "comment-quote comment-quote-gone"}>{anchor.quote}</blockquote>
      {anchor.status === "section" ? <p className="muted">This passage has changed; the comment stays on its section.</p> : null}
    </div>
  );
}

/**
 * One thread: its passage, first comment, replies, reply box and Resolve /
 * Reopen. `id="comment-<id>"` and `data-comment-id` let the editor scroll to
 * and mark it; `active` highlights it; a click or focus inside calls `onFocus`.
 */
export function CommentThread({ thread, viewer, active, onFocus }: { thread: CommentView; viewer: Viewer; active: boolean; onFocus?: (id: string) => void }) {
  const focus = onFocus ? () => onFocus(thread.id) : undefined;
  const classes = ["thread", active ? "thread-active" : "", thread.resolved ? "thread-resolved" : ""].filter(Boolean).join(" ");
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a convenience for the pointer; keyboard users reach the same through focus on the thread's controls (onFocus).
    <article
      id={`comment-${thread.id}`}
      data-comment-id={thread.id}
      className={classes}
      aria-current={active ? "true" : undefined}
      onClick={focus}
      onFocus={focus}
    >
      {thread.anchor ? <Quote anchor={thread.anchor} /> : null}
      <Comment comment={thread} viewer={viewer} />
      {(thread.replies ?? []).map((r) => (
        <div key={r.id} className="reply">
          <Comment comment={r} viewer={viewer} />
        </div>
      ))}
      {thread.resolved ? (
        <p className="muted comment-resolved-by">
          Resolved{thread.resolvedBy ? ` by ${thread.resolvedBy.name}` : ""}
          {thread.resolvedAt ? (
            <>
              {" "}
              <RelativeTime iso={thread.resolvedAt} />
            </>
          ) : null}
        </p>
      ) : null}
      {viewer.canComment ? (
        <div className="inline">
          {thread.resolved ? null : (
            <details className="reply-form">
              <summary>Reply</summary>
              <CommentForm intent="comment-create" fields={{ parentId: thread.id }}>
                {({ busy }) => (
                  <>
                    <label htmlFor={`reply-${thread.id}`} className="sr-only">
                      Reply
                    </label>
                    <MentionTextarea
                      id={`reply-${thread.id}`}
                      name="content"
                      rows={2}
                      required
                      maxLength={10000}
                      placeholder="Reply. Type @ to mention a teammate."
                      candidates={viewer.mentionable}
                    />
                    <div>
                      <button type="submit" className="btn btn-secondary btn-sm" disabled={busy}>
                        {busy ? "Replying…" : "Reply"}
                      </button>
                    </div>
                  </>
                )}
              </CommentForm>
            </details>
          )}
          <ActionButton
            intent={thread.resolved ? "comment-reopen" : "comment-resolve"}
            commentId={thread.id}
            label={`${thread.resolved ? "Reopen" : "Resolve"} thread started by ${thread.deleted ? "a deleted comment" : authorOf(thread)}`}
          >
            {thread.resolved ? "Reopen" : "Resolve"}
          </ActionButton>
        </div>
      ) : null}
    </article>
  );
}
