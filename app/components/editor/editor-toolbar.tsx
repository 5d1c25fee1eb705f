import type { Editor } from "@tiptap/core";
import { useEditorState } from "@tiptap/react";
import { useState } from "react";

/** Formatting buttons; each says what it does and shows whether it is on. */
export function EditorToolbar({ editor, onImage, onSaveVersion }: { editor: Editor; onImage: () => void; onSaveVersion: () => void }) {
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      strike: e.isActive("strike"),
      code: e.isActive("code"),
      h2: e.isActive("heading", { level: 2 }),
      h3: e.isActive("heading", { level: 3 }),
      bullet: e.isActive("bulletList"),
      ordered: e.isActive("orderedList"),
      task: e.isActive("taskList"),
      quote: e.isActive("blockquote"),
      codeBlock: e.isActive("codeBlock"),
      link: e.isActive("link"),
      canUndo: e.can().undo?.() ?? false,
      canRedo: e.can().redo?.() ?? false,
    }),
  });
  const run = (fn: (c: ReturnType<Editor["chain"]>) => ReturnType<Editor["chain"]>) => () => fn(editor.chain().focus()).run();
  const [linking, setLinking] = useState<string | null>(null);
  const link = () => setLinking((editor.getAttributes("link").href as string | undefined) ?? "https://");
  const applyLink = (event: React.FormEvent) => {
    event.preventDefault();
    const href = (linking ?? "").trim();
    const chain = editor.chain().focus().extendMarkRange("link");
    if (!href || href === "https://") chain.unsetLink().run();
    else chain.setLink({ href }).run();
    setLinking(null);
  };
  const buttons: [string, string, boolean | undefined, () => void, string?][] = [
    ["B", "Bold", active?.bold, run((c) => c.toggleBold()), "Ctrl+B"],
    ["I", "Italic", active?.italic, run((c) => c.toggleItalic()), "Ctrl+I"],
    ["S", "Strikethrough", active?.strike, run((c) => c.toggleStrike()), "Ctrl+Shift+S"],
    ["</>", "Inline code", active?.code, run((c) => c.toggleCode()), "Ctrl+E"],
    ["H2", "Heading", active?.h2, run((c) => c.toggleHeading({ level: 2 })), "Ctrl+Alt+2"],
    ["H3", "Subheading", active?.h3, run((c) => c.toggleHeading({ level: 3 })), "Ctrl+Alt+3"],
    ["• List", "Bulleted list", active?.bullet, run((c) => c.toggleBulletList()), "Ctrl+Shift+8"],
    ["1. List", "Numbered list", active?.ordered, run((c) => c.toggleOrderedList()), "Ctrl+Shift+7"],
    ["☐ Tasks", "Task list", active?.task, run((c) => c.toggleTaskList()), "Ctrl+Shift+9"],
    ["❝", "Quote", active?.quote, run((c) => c.toggleBlockquote()), "Ctrl+Shift+B"],
    ["{ }", "Code block", active?.codeBlock, run((c) => c.toggleCodeBlock()), "Ctrl+Alt+C"],
    ["Table", "Insert table", undefined, run((c) => c.insertTable({ rows: 3, cols: 3, withHeaderRow: true }))],
    ["Link", "Link", active?.link, link, "Ctrl+K"],
    ["Image", "Upload image", undefined, onImage],
  ];
  return (
    <div className="editor-toolbar" role="toolbar" aria-label="Formatting">
      {buttons.map(([label, name, pressed, onClick, keys]) => (
        <button
          key={name}
          type="button"
          className="tool"
          aria-label={name}
          aria-pressed={pressed === undefined ? undefined : pressed}
          title={keys ? `${name} (${keys})` : name}
          onMouseDown={(e) => e.preventDefault()}
          onClick={onClick}
        >
          {label}
        </button>
      ))}
      <span className="toolbar-gap" />
      <button type="button" className="tool" aria-label="Undo" title="Undo (Ctrl+Z)" disabled={!active?.canUndo} onClick={run((c) => c.undo())}>
        ↶
      </button>
      <button type="button" className="tool" aria-label="Redo" title="Redo (Ctrl+Shift+Z)" disabled={!active?.canRedo} onClick={run((c) => c.redo())}>
        ↷
      </button>
      {linking !== null ? (
        <form className="toolbar-link" onSubmit={applyLink} onKeyDown={(e) => e.key === "Escape" && setLinking(null)}>
          <label htmlFor="toolbar-link-url" className="sr-only">
            Link address
          </label>
          {/* biome-ignore lint/a11y/noAutofocus: the field opens because the user asked to add a link. */}
          <input id="toolbar-link-url" type="url" autoFocus value={linking} onChange={(e) => setLinking(e.target.value)} placeholder="https://" />
          <button type="submit" className="btn btn-sm">
            Apply link
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => {
              editor.chain().focus().extendMarkRange("link").unsetLink().run();
              setLinking(null);
            }}
          >
            Remove link
          </button>
        </form>
      ) : null}
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        onClick={onSaveVersion}
        title="Save a version now (Ctrl+S); one is also saved after a pause in typing"
      >
        Save version
      </button>
    </div>
  );
}
