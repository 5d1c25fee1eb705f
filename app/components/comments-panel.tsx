import { useCallback, useEffect, useState } from "react";
import { CommentActions, CommentForm, CommentNotice, type Notify, useCommentActions } from "./comments/comment-form";
import { CommentThread } from "./comments/comment-thread";
import { MentionTextarea } from "./comments/mention-textarea";
import type { CommentView, MentionCandidate } from "./comments/types";

export type { CommentView, MentionCandidate } from "./comments/types";

export interface CommentsPanelProps {
  /** Threads: top-level comments, each with its replies (GET …/comments). */
  comments: CommentView[];
  /** The PRD's sections, for grouping and the "On section" choice. */
  sections: { id: string; title: string }[];
  /** The signed-in user's id (their comments get Edit and Delete). */
  me: string;
  /** Owners and admins delete anyone's comments. */
  isAdmin: boolean;
  canComment: boolean;
  /** Who `@` offers in the comment boxes (GET …/comments/mentionable); none: no suggestions. */
  mentionable?: MentionCandidate[];
  /** The thread to highlight (and scroll to), e.g. the one whose passage is selected in the editor. */
  activeCommentId?: string;
  /** Called with a thread's id when the user clicks in it or focuses one of its controls. */
  onThreadFocus?: (id: string) => void;
}

function NewComment({ sections, mentionable }: { sections: CommentsPanelProps["sections"]; mentionable: MentionCandidate[] }) {
  return (
    <CommentForm intent="comment-create" className="form comment-new">
      {({ busy }) => (
        <>
          <div className="field">
            <label htmlFor="comment-content">New comment</label>
            <MentionTextarea
              id="comment-content"
              name="content"
              rows={3}
              required
              maxLength={10000}
              placeholder="Ask a question or suggest a change. Type @ to mention a teammate."
              candidates={mentionable}
            />
          </div>
          {sections.length ? (
            <div className="field">
              <label htmlFor="comment-section">On section</label>
              <select id="comment-section" name="section" defaultValue="">
                <option value="">Whole document</option>
                {sections.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.title}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <div>
            <button type="submit" className="btn btn-sm" disabled={busy}>
              {busy ? "Posting…" : "Comment"}
            </button>
          </div>
        </>
      )}
    </CommentForm>
  );
}

/**
 * Comment threads beside the PRD: open threads grouped by the section they
 * are on, resolved ones folded under "Resolved (n)" at the bottom.
 */
export function CommentsPanel({ comments, sections, me, isAdmin, canComment, mentionable = [], activeCommentId, onThreadFocus }: CommentsPanelProps) {
  const [notice, setNotice] = useState<{ message: string; tone: "success" | "error" } | null>(null);
  const notify = useCallback<Notify>((message, tone = "success") => setNotice({ message, tone }), []);
  const actions = useCommentActions(notify);
  const titleOf = new Map(sections.map((s) => [s.id, s.title]));
  const open = comments.filter((c) => !c.resolved);
  const resolved = comments.filter((c) => c.resolved);
  const groups = new Map<string, CommentView[]>();
  for (const c of open) {
    const key = c.section ?? "";
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const viewer = { me, isAdmin, canComment, mentionable: mentionable.filter((m) => m.id !== me) };
  const thread = (t: CommentView) => <CommentThread key={t.id} thread={t} viewer={viewer} active={t.id === activeCommentId} onFocus={onThreadFocus} />;

  // The active thread is brought into view (its "Resolved" fold opened).
  useEffect(() => {
    if (!activeCommentId) return;
    const el = document.getElementById(`comment-${activeCommentId}`);
    const fold = el?.closest("details");
    if (fold && !fold.open) fold.open = true;
    el?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  }, [activeCommentId]);

  return (
    <CommentNotice.Provider value={notify}>
      <CommentActions.Provider value={actions}>
        <aside className="card comments" aria-labelledby="comments-heading">
          <h2 id="comments-heading">Comments {comments.length ? <span className="badge">{comments.length}</span> : null}</h2>
          <p className={notice?.tone === "error" ? "comment-notice comment-notice-error" : "comment-notice"} role="status">
            {notice?.message ?? ""}
          </p>
          {canComment ? <NewComment sections={sections} mentionable={viewer.mentionable} /> : null}
          {comments.length === 0 ? <p className="muted">No comments yet. {canComment ? "Start the discussion above." : ""}</p> : null}
          {[...groups].map(([section, threads]) => (
            <section key={section} className="comment-group" aria-label={section ? `On ${titleOf.get(section) ?? section}` : "Whole document"}>
              <h3>{section ? <a href={`#${section}`}>§ {titleOf.get(section) ?? section}</a> : "Whole document"}</h3>
              {threads.map(thread)}
            </section>
          ))}
          {resolved.length ? (
            <details className="comments-resolved">
              <summary>Resolved ({resolved.length})</summary>
              {resolved.map(thread)}
            </details>
          ) : null}
        </aside>
      </CommentActions.Provider>
    </CommentNotice.Provider>
  );
}
