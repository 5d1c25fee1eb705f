import { Extension, type AnyExtension } from "@tiptap/core";
import Image from "@tiptap/extension-image";
import { TaskItem, TaskList } from "@tiptap/extension-list";
import { TableKit } from "@tiptap/extension-table";
import StarterKit from "@tiptap/starter-kit";

/** The block nodes that remember the Markdown they were read from. */
const SOURCE_BLOCKS = ["paragraph", "heading", "bulletList", "orderedList", "taskList", "blockquote", "codeBlock", "horizontalRule", "table", "image"];

/**
 * `md`: the exact Markdown a top-level block was read from. The serializer
 * writes it back unchanged while the block still means the same thing, so
 * opening and saving a PRD never rewrites what the user did not touch
 * (docs/design/rich-editor.md). It is not rendered and not kept on split.
 */
export const SourceMarkdown = Extension.create({
  name: "sourceMarkdown",
  addGlobalAttributes() {
    return [{ types: SOURCE_BLOCKS, attributes: { md: { default: null, rendered: false, keepOnSplit: false } } }];
  },
});

export interface PrdExtensionOptions {
  /** Real-time editing brings its own undo history (Yjs); the local one must be off. */
  collaborative?: boolean;
  /** The browser's code block (same node, with a Mermaid preview); the server keeps StarterKit's. */
  codeBlock?: AnyExtension;
}

/**
 * The PRD document model, shared by the browser editor and the server (which
 * turns the live collaborative document back into Markdown): one list, so
 * both sides always agree on the schema.
 */
export function prdExtensions(options: PrdExtensionOptions = {}): AnyExtension[] {
  return [
    StarterKit.configure({
      underline: false,
      link: { openOnClick: false, autolink: true, HTMLAttributes: { rel: "noopener noreferrer nofollow", target: null } },
      // Each client appending its own trailing paragraph would add one per collaborator.
      ...(options.collaborative ? { undoRedo: false, trailingNode: false } : {}),
      ...(options.codeBlock ? { codeBlock: false } : {}),
    }),
    ...(options.codeBlock ? [options.codeBlock] : []),
    TaskList,
    TaskItem.configure({ nested: true }),
    TableKit.configure({ table: { resizable: false } }),
    Image.configure({ inline: false, allowBase64: false }),
    SourceMarkdown,
  ];
}
