import { Form, useNavigation } from "@remix-run/react";
import { RelativeTime } from "./project-badges";

interface CommentView {
  id: string;
  content: string;
  section: string | null;
  deleted: boolean;
  user: { id: string; name: string } | null;
  createdAt: string;
  editedAt: string | null;
  replies?: CommentView[];
}

export interface CommentsPanelProps {
  comments: CommentView[];
  sections: { id: string; title: string }[];
  me: string;
  isAdmin: boolean;
  canComment: boolean;
}

function DeleteButton({ comment }: { comment: CommentView }) {
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value="comment-delete" />
      <input type="hidden" name="commentId" value={comment.id} />
      <button type="submit" className="btn btn-link btn-sm" aria-label={`Delete comment by ${comment.user?.name ?? "someone"}`}>
        Delete
      </button>
    </Form>
  );
}

function Comment({ comment, me, isAdmin }: { comment: CommentView; me: string; isAdmin: boolean }) {
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
        {!comment.deleted && comment.user?.id === me ? (
          <details className="reply-form">
            <summary>Edit</summary>
            <Form method="post" className="form">
              <input type="hidden" name="intent" value="comment-edit" />
              <input type="hidden" name="commentId" value={comment.id} />
              <label htmlFor={`edit-${comment.id}`} className="sr-only">
                Edit comment
              </label>
              <textarea id={`edit-${comment.id}`} name="content" rows={2} required defaultValue={comment.content} />
              <div>
                <button type="submit" className="btn btn-secondary btn-sm">
                  Save
                </button>
              </div>
            </Form>
          </details>
        ) : null}
        {!comment.deleted && (comment.user?.id === me || isAdmin) ? <DeleteButton comment={comment} /> : null}
      </div>
    </div>
  );
}

/** Comment threads beside the PRD, grouped by the section they anchor to. */
export function CommentsPanel({ comments, sections, me, isAdmin, canComment }: CommentsPanelProps) {
  const navigation = useNavigation();
  const posting = navigation.formData?.get("intent") === "comment-create";
  const titleOf = new Map(sections.map((s) => [s.id, s.title]));
  const groups = new Map<string, CommentView[]>();
  for (const c of comments) {
    const key = c.section ?? "";
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return (
    <aside className="card comments" aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments {comments.length ? <span className="badge">{comments.length}</span> : null}</h2>
      {canComment ? (
        <Form method="post" className="form" style={{ marginBottom: 16 }}>
          <input type="hidden" name="intent" value="comment-create" />
          <div className="field">
            <label htmlFor="comment-content">New comment</label>
            <textarea id="comment-content" name="content" rows={3} required maxLength={10000} placeholder="Ask a question or suggest a change. @name@example.com mentions a teammate." />
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
            <button type="submit" className="btn btn-sm" disabled={posting}>
              {posting ? "Posting…" : "Comment"}
            </button>
          </div>
        </Form>
      ) : null}
      {comments.length === 0 ? (
        <p className="muted">No comments yet. {canComment ? "Start the discussion above." : ""}</p>
      ) : (
        [...groups].map(([section, threads]) => (
          <section key={section} className="comment-group" aria-label={section ? `On ${titleOf.get(section) ?? section}` : "Whole document"}>
            <h3>{section ? <a href={`#${section}`}>§ {titleOf.get(section) ?? section}</a> : "Whole document"}</h3>
            {threads.map((t) => (
              <div key={t.id} className="thread">
                <Comment comment={t} me={me} isAdmin={isAdmin} />
                {(t.replies ?? []).map((r) => (
                  <div key={r.id} className="reply">
                    <Comment comment={r} me={me} isAdmin={isAdmin} />
                  </div>
                ))}
                {canComment ? (
                  <details className="reply-form">
                    <summary>Reply</summary>
                    <Form method="post" className="form">
                      <input type="hidden" name="intent" value="comment-create" />
                      <input type="hidden" name="parentId" value={t.id} />
                      <label htmlFor={`reply-${t.id}`} className="sr-only">
                        Reply
                      </label>
                      <textarea id={`reply-${t.id}`} name="content" rows={2} required />
                      <div>
                        <button type="submit" className="btn btn-secondary btn-sm">
                          Reply
                        </button>
                      </div>
                    </Form>
                  </details>
                ) : null}
              </div>
            ))}
          </section>
        ))
      )}
    </aside>
  );
}
