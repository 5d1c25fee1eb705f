import { Extension } from "@tiptap/core";
import Collaboration from "@tiptap/extension-collaboration";
import Placeholder from "@tiptap/extension-placeholder";
import { EditorContent, useEditor } from "@tiptap/react";
import { yCursorPlugin } from "@tiptap/y-tiptap";
import { useEffect, useMemo, useRef, useState } from "react";
import type { MentionCandidate } from "~/components/comments/types";
import { prdExtensions } from "~/editor/extensions";
import { PrdMarkdown } from "~/editor/markdown";
import { CodeBlockWithPreview } from "./code-block-view";
import { type AnchoredThread, CommentHighlights, commentHighlightsKey } from "./comment-highlights";
import { EditorOutline } from "./editor-outline";
import { EditorToolbar } from "./editor-toolbar";
import { imageFiles, uploadImage } from "./image-upload";
import type { LiveProvider, LiveState } from "./live-provider";
import { LiveStatusBar } from "./live-status";
import { AiPanel, type CapturedSelection, CommentComposer, captureSelection, SelectionBar } from "./selection-tools";
import { SlashCommands, type SlashMenuState, slashItems } from "./slash-commands";
import { SlashMenu } from "./slash-menu";
import { useLiveDoc } from "./use-live-doc";

/**
 * The PRD as a rich, live document (docs/design/rich-editor.md). Loaded only
 * in the browser, over the server-rendered page; Markdown stays the stored
 * format. Everyone on the page sees changes as they happen; editors type,
 * viewers and commenters read (and comment on selected text).
 */

export interface RichEditorProps {
  projectId: string;
  me: { id: string; name: string };
  canEdit: boolean;
  canComment: boolean;
  /** The organization has an issue tracker connected: editors may send the stories in a selection to it. */
  canSendToTracker?: boolean;
  /** The server-rendered document, shown until the live document arrives. */
  html: string;
  /** The PRD's version when the page was rendered (the status line shows newer ones as they are saved). */
  versionNumber: number | null;
  threads: AnchoredThread[];
  /** Readers of the project, offered after `@` in a comment. */
  mentionable: MentionCandidate[];
  activeCommentId: string | null;
  onActiveComment: (id: string | null) => void;
  onCommentPosted: (id: string) => void;
}

export default function RichEditor(props: RichEditorProps) {
  const { provider, state, generation } = useLiveDoc(props.projectId, () => (props.canEdit ? "editing" : "viewing"));
  if (!provider || !state?.synced) {
    return (
      <article className="card prose" aria-label="PRD" aria-busy="true">
        <p className="muted" role="status">
          Opening the live document…
        </p>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server (renderMarkdown). */}
        <div dangerouslySetInnerHTML={{ __html: props.html }} />
      </article>
    );
  }
  return <EditorSurface key={generation} {...props} provider={provider} live={state} />;
}

const markdown = new PrdMarkdown(prdExtensions({ collaborative: true }));

/** A collaborator's caret; the name is drawn by CSS, so it is not part of the text (copying, screen readers). */
function caret(user: { name?: string; color?: string }) {
  const el = document.createElement("span");
  el.className = "ProseMirror-yjs-cursor";
  el.setAttribute("aria-hidden", "true");
  el.dataset.name = user.name ?? "";
  el.style.setProperty("--caret", /^#[0-9a-f]{3,8}$/i.test(user.color ?? "") ? user.color! : "#2563eb");
  return el;
}

function EditorSurface(props: RichEditorProps & { provider: LiveProvider; live: LiveState }) {
  const { provider, live, projectId } = props;
  const canEdit = props.canEdit && live.canEdit;
  const container = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [slash, setSlash] = useState<SlashMenuState | null>(null);
  const [selection, setSelection] = useState<CapturedSelection | null>(null);
  const [task, setTaskState] = useState<{ kind: "comment" | "ai"; selection: CapturedSelection & { source: string } } | null>(null);
  const setTask = (next: typeof task) => {
    setTaskState(next);
    if (!next) setSelection(null);
  };
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const refs = useRef({
    threads: props.threads,
    active: props.activeCommentId,
    pending: null as { from: number; to: number } | null,
    onSelect: props.onActiveComment,
  });
  refs.current.threads = props.threads;
  refs.current.active = props.activeCommentId;
  refs.current.onSelect = props.onActiveComment;
  refs.current.pending = task ? { from: task.selection.from, to: task.selection.to } : null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: built once per live document; changing inputs are read through refs.
  const extensions = useMemo(() => {
    provider.awareness.setLocalStateField("user", { name: props.me.name, color: "#2563eb" });
    return [
      ...prdExtensions({ collaborative: true, codeBlock: CodeBlockWithPreview }),
      Collaboration.configure({ document: provider.doc, field: "default" }),
      Extension.create({ name: "liveCursors", addProseMirrorPlugins: () => [yCursorPlugin(provider.awareness, { cursorBuilder: caret })] }),
      Placeholder.configure({ placeholder: canEdit ? "Write, or type / for headings, lists, tables, diagrams and images…" : "" }),
      SlashCommands.configure({ items: () => slashItems(() => fileInput.current?.click()), onChange: setSlash }),
      CommentHighlights.configure({
        threads: () => refs.current.threads,
        active: () => refs.current.active,
        pending: () => refs.current.pending,
        onSelect: (id) => refs.current.onSelect(id),
      }),
      Extension.create({
        name: "prdShortcuts",
        addKeyboardShortcuts: () => ({
          "Mod-s": () => {
            void saveVersion();
            return true;
          },
          "Mod-Alt-m": () => {
            open("comment");
            return true;
          },
        }),
      }),
    ];
  }, [provider]);

  const editor = useEditor(
    {
      extensions,
      editable: canEdit,
      immediatelyRender: false,
      editorProps: {
        attributes: { class: "prose rich-editor-content", "aria-label": "PRD document", role: "textbox", "aria-multiline": "true" },
        handlePaste: (_view, event) => {
          const files = imageFiles(event.clipboardData?.files);
          if (!files.length || !canEdit) return false;
          void insertImages(files);
          return true;
        },
        handleDrop: (_view, event) => {
          const files = imageFiles((event as DragEvent).dataTransfer?.files);
          if (!files.length || !canEdit) return false;
          void insertImages(files);
          return true;
        },
      },
      onSelectionUpdate: ({ editor }) => setSelection(captureSelection(editor, container.current)),
    },
    [extensions],
  );

  // A success note fades after a while; an error stays until the next action.
  useEffect(() => {
    if (message?.tone !== "success") return;
    const timer = setTimeout(() => setMessage(null), 6000);
    return () => clearTimeout(timer);
  }, [message]);

  // Highlights follow the comments list and the selected thread.
  // biome-ignore lint/correctness/useExhaustiveDependencies: redraw when the threads or the active one change.
  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.view.dispatch(editor.state.tr.setMeta(commentHighlightsKey, true));
  }, [editor, props.threads, props.activeCommentId, task]);

  useEffect(() => {
    editor?.setEditable(canEdit);
  }, [editor, canEdit]);

  async function insertImages(files: File[]) {
    if (!editor) return;
    setMessage({ tone: "success", text: `Uploading ${files.length === 1 ? files[0]!.name : `${files.length} images`}…` });
    try {
      for (const file of files) {
        const src = await uploadImage(projectId, file);
        // The caret goes to a new line after the picture, so typing on does not replace it.
        const alt = file.name.replace(/\.[^.]+$/, "");
        editor
          .chain()
          .focus()
          .insertContent([{ type: "image", attrs: { src, alt } }, { type: "paragraph" }])
          .run();
      }
      setMessage(null);
    } catch (e) {
      setMessage({ tone: "error", text: e instanceof Error ? e.message : "The image could not be uploaded." });
    }
  }

  async function saveVersion() {
    try {
      const result = await provider.saveVersion();
      setMessage({ tone: "success", text: result.saved ? `Saved as version ${result.versionNumber}.` : "No changes since the last version." });
    } catch (e) {
      setMessage({ tone: "error", text: e instanceof Error ? e.message : "The version could not be saved." });
    }
  }

  /** The selected blocks as Markdown (headings keep their #), as AI gets a multi-block selection. */
  function selectionMarkdown() {
    if (!editor || editor.state.selection.empty) return "";
    return markdown.serialize({ type: "doc", content: editor.state.selection.content().content.toJSON() }).trim();
  }

  function open(kind: "comment" | "ai") {
    const current = editor ? captureSelection(editor, container.current) : null;
    if (!editor || !current) return;
    const source = current.blocks ? selectionMarkdown() : current.text;
    setTask({ kind, selection: { ...current, source } });
  }

  function accept(replacement: string) {
    if (!editor || !task) return;
    const { from, to, text, blocks } = task.selection;
    if (editor.state.doc.textBetween(from, to, "\n").trim() !== text) {
      setMessage({ tone: "error", text: "The passage changed while AI was writing; select it again and retry." });
      setTask(null);
      return;
    }
    const content = blocks ? (markdown.parse(replacement).content ?? []) : [{ type: "text", text: replacement.trim() }];
    editor.chain().focus().insertContentAt({ from, to }, content).run();
    setTask(null);
    setMessage({ tone: "success", text: "The suggestion replaced the selected text." });
  }

  if (!editor) return null;
  return (
    <article className="rich-editor" aria-label="PRD">
      <LiveStatusBar live={live} me={props.me} canEdit={canEdit} message={message} versionNumber={live.version?.versionNumber ?? props.versionNumber} />
      {canEdit ? <EditorToolbar editor={editor} onImage={() => fileInput.current?.click()} onSaveVersion={saveVersion} /> : null}
      <div className="rich-editor-body">
        <EditorOutline editor={editor} />
        <div className="rich-editor-page" ref={container}>
          <EditorContent editor={editor} />
          {slash?.items.length ? <SlashMenu state={slash} container={container.current} /> : null}
          {selection && !task ? (
            <SelectionBar
              at={selection}
              canEdit={canEdit}
              canComment={props.canComment}
              onComment={() => open("comment")}
              onAi={() => open("ai")}
              sendStories={
                props.canSendToTracker
                  ? { action: `/projects/${encodeURIComponent(projectId)}/tracker`, markdown: () => selectionMarkdown() || (selection?.text ?? "") }
                  : undefined
              }
            />
          ) : null}
          {task?.kind === "comment" ? (
            <CommentComposer
              projectId={projectId}
              selection={task.selection}
              mentionable={props.mentionable}
              onClose={() => setTask(null)}
              onPosted={(id) => {
                setTask(null);
                props.onCommentPosted(id);
              }}
            />
          ) : null}
          {task?.kind === "ai" ? <AiPanel projectId={projectId} selection={task.selection} onAccept={accept} onClose={() => setTask(null)} /> : null}
        </div>
      </div>
      <input
        ref={fileInput}
        type="file"
        accept="image/png,image/jpeg,image/gif,image/webp"
        hidden
        aria-label="Upload an image into the PRD"
        onChange={(e) => {
          const files = imageFiles(e.target.files);
          e.target.value = "";
          if (files.length) void insertImages(files);
        }}
      />
    </article>
  );
}
