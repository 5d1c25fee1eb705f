import type { Editor } from "@tiptap/core";
import { useEditorState } from "@tiptap/react";
import { useEffect, useRef } from "react";

/**
 * The document's headings, kept in view beside the editor; a click scrolls to
 * the section. Where the editor is narrow the outline sits above it, folded.
 */
export function EditorOutline({ editor }: { editor: Editor }) {
  const box = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = box.current;
    const width = details?.parentElement?.getBoundingClientRect().width ?? 0;
    if (details && width >= 900) details.open = true;
  }, []);
  const headings = useEditorState({
    editor,
    selector: ({ editor }) => {
      const list: { level: number; text: string; pos: number }[] = [];
      editor.state.doc.forEach((node, pos) => {
        if (node.type.name === "heading" && node.textContent.trim()) list.push({ level: node.attrs.level as number, text: node.textContent, pos });
      });
      return list;
    },
    equalityFn: (a, b) => JSON.stringify(a) === JSON.stringify(b),
  });
  if (!headings?.length) return null;
  const go = (pos: number) => {
    const dom = editor.view.nodeDOM(pos);
    if (dom instanceof HTMLElement) dom.scrollIntoView({ behavior: "smooth", block: "start" });
    editor
      .chain()
      .focus()
      .setTextSelection(pos + 1)
      .run();
  };
  return (
    <details className="editor-outline" ref={box}>
      <summary className="outline-title">Outline</summary>
      <nav aria-label="Outline">
        <ol>
          {headings.map((h) => (
            <li key={h.pos} className={`outline-level-${Math.min(h.level, 3)}`}>
              <button type="button" className="btn-link" onClick={() => go(h.pos)}>
                {h.text}
              </button>
            </li>
          ))}
        </ol>
      </nav>
    </details>
  );
}
