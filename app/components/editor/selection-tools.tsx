import type { Editor } from "@tiptap/core";
import { useEffect, useRef, useState } from "react";
import { MentionTextarea } from "~/components/comments/mention-textarea";
import type { MentionCandidate } from "~/components/comments/types";
import { SelectionAi } from "./selection-ai";
import { textIndex } from "./text-index";

/**
 * What can be done with selected text: comment on it, ask AI to rewrite
 * it, or send the stories in it to an issue tracker. The selection is
 * captured (text, the words around it, its range) so the panel can stay
 * open while the user types elsewhere.
 */

export interface CapturedSelection {
  from: number;
  to: number;
  text: string;
  prefix: string;
  suffix: string;
  /** The selection spans more than one block: AI gets and returns Markdown. */
  blocks: boolean;
  top: number;
  left: number;
}

export function captureSelection(editor: Editor, container: HTMLElement | null): CapturedSelection | null {
  const { from, to, empty } = editor.state.selection;
  if (empty) return null;
  const text = editor.state.doc.textBetween(from, to, "\n").trim();
  if (!text) return null;
  const index = textIndex(editor.state.doc);
  const start = index.offset(from);
  const end = index.offset(to);
  const coords = editor.view.coordsAtPos(to);
  const box = container?.getBoundingClientRect();
  return {
    from,
    to,
    text,
    prefix: index.text.slice(Math.max(0, start - 48), start),
    suffix: index.text.slice(end, end + 48),
    blocks: editor.state.doc.resolve(from).parent !== editor.state.doc.resolve(to).parent,
    top: coords.bottom - (box?.top ?? 0) + 6,
    left: Math.max(0, Math.min(coords.left - (box?.left ?? 0), (box?.width ?? 600) - 340)),
  };
}

export function SelectionBar({
  at,
  canEdit,
  canComment,
  onComment,
  onAi,
  sendStories,
}: {
  at: { top: number; left: number };
  canEdit: boolean;
  canComment: boolean;
  onComment: () => void;
  onAi: () => void;
  /** "Send selected stories to tracker": the tracker page's address and the selection as Markdown (absent: not offered). */
  sendStories?: { action: string; markdown: () => string };
}) {
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selected text" style={{ top: at.top, left: at.left }}>
      {canComment ? (
        <button type="button" className="btn btn-secondary btn-sm" onMouseDown={(e) => e.preventDefault()} onClick={onComment}>
          Comment
        </button>
      ) : null}
      {canEdit ? (
        <button type="button" className="btn btn-secondary btn-sm" onMouseDown={(e) => e.preventDefault()} onClick={onAi}>
          Ask AI
        </button>
      ) : null}
      {canEdit && sendStories ? (
        // A real form: the tracker page opens (a normal navigation) with the selection as pasted stories, already previewed.
        <form
          method="post"
          action={sendStories.action}
          className="selection-bar-form"
          onSubmit={(e) => {
            const field = e.currentTarget.elements.namedItem("markdown");
            if (field instanceof HTMLInputElement) field.value = sendStories.markdown();
          }}
        >
          <input type="hidden" name="intent" value="preview" />
          <input type="hidden" name="source" value="paste" />
          <input type="hidden" name="from" value="editor" />
          <input type="hidden" name="markdown" defaultValue="" />
          <button type="submit" className="btn btn-secondary btn-sm" onMouseDown={(e) => e.preventDefault()}>
            Send selected stories to tracker
          </button>
        </form>
      ) : null}
    </div>
  );
}

export function CommentComposer({
  projectId,
  selection,
  mentionable,
  onPosted,
  onClose,
}: {
  projectId: string;
  selection: CapturedSelection;
  mentionable: MentionCandidate[];
  onPosted: (commentId: string) => void;
  onClose: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [posting, setPosting] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector("textarea")?.focus(), []);
  const post = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const content = String(new FormData(event.currentTarget).get("content") ?? "");
    if (!content.trim()) return;
    setPosting(true);
    setError(null);
    try {
      const response = await fetch(`/api/projects/${encodeURIComponent(projectId)}/comments`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ content, anchor: { quote: selection.text.slice(0, 500), prefix: selection.prefix, suffix: selection.suffix } }),
      });
      const body = (await response.json().catch(() => ({}))) as { id?: string; comment?: { id: string }; error?: string };
      if (!response.ok) throw new Error(body.error ?? `The comment could not be posted (${response.status}).`);
      form.current?.reset();
      onPosted(body.comment?.id ?? body.id ?? "");
    } catch (e) {
      setError(e instanceof Error ? e.message : "The comment could not be posted.");
    } finally {
      setPosting(false);
    }
  };
  return (
    <form
      ref={form}
      className="selection-panel form"
      style={{ top: selection.top, left: selection.left }}
      onSubmit={post}
      onKeyDown={(e) => e.key === "Escape" && onClose()}
      aria-label="Comment on the selected text"
    >
      <blockquote className="quote-preview">{selection.text.length > 160 ? `${selection.text.slice(0, 160)}…` : selection.text}</blockquote>
      <label htmlFor="selection-comment">Your comment</label>
      <MentionTextarea
        id="selection-comment"
        name="content"
        rows={3}
        maxLength={10000}
        required
        candidates={mentionable}
        placeholder="Type @ to mention a teammate"
      />
      {error ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="inline">
        <button type="submit" className="btn btn-sm" disabled={posting}>
          {posting ? "Posting…" : "Post comment"}
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function AiPanel({
  projectId,
  selection,
  onAccept,
  onClose,
}: {
  projectId: string;
  selection: CapturedSelection & { source: string };
  onAccept: (replacement: string) => void;
  onClose: () => void;
}) {
  return (
    <div className="selection-panel selection-panel-wide" style={{ top: selection.top, left: Math.max(0, selection.left - 120) }}>
      <SelectionAi projectId={projectId} text={selection.source} onAccept={onAccept} onClose={onClose} />
    </div>
  );
}
