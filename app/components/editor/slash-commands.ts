import { type Editor, Extension, type Range } from "@tiptap/core";
import { PluginKey } from "@tiptap/pm/state";
import Suggestion from "@tiptap/suggestion";

/**
 * Type `/` to insert a block: headings, lists, tasks, quote, code, a Mermaid
 * diagram, a table, an image or a divider. Arrow keys move, Enter inserts,
 * Escape closes; typing filters.
 */

export interface SlashItem {
  title: string;
  hint: string;
  keywords: string;
  run: (editor: Editor) => void;
}

export interface SlashMenuState {
  items: SlashItem[];
  index: number;
  rect: DOMRect | null;
  choose: (item: SlashItem) => void;
}

export function slashItems(pickImage: () => void): SlashItem[] {
  const chain = (e: Editor) => e.chain().focus();
  return [
    { title: "Heading", hint: "Section title (##)", keywords: "h2 heading section title", run: (e) => chain(e).setNode("heading", { level: 2 }).run() },
    { title: "Subheading", hint: "Subsection (###)", keywords: "h3 subheading", run: (e) => chain(e).setNode("heading", { level: 3 }).run() },
    { title: "Bulleted list", hint: "- item", keywords: "ul bullet list unordered", run: (e) => chain(e).toggleBulletList().run() },
    { title: "Numbered list", hint: "1. item", keywords: "ol numbered ordered list", run: (e) => chain(e).toggleOrderedList().run() },
    { title: "Task list", hint: "- [ ] to do", keywords: "todo task checkbox", run: (e) => chain(e).toggleTaskList().run() },
    { title: "Quote", hint: "> quoted text", keywords: "blockquote quote", run: (e) => chain(e).toggleBlockquote().run() },
    { title: "Code block", hint: "``` code", keywords: "code pre", run: (e) => chain(e).toggleCodeBlock().run() },
    {
      title: "Mermaid diagram",
      hint: "Flowchart with a live preview",
      keywords: "mermaid diagram flowchart chart",
      run: (e) =>
        chain(e)
          .insertContent({ type: "codeBlock", attrs: { language: "mermaid" }, content: [{ type: "text", text: "flowchart TD\n  A[Start] --> B[Finish]" }] })
          .run(),
    },
    {
      title: "Table",
      hint: "3 × 3 with a header row",
      keywords: "table grid",
      run: (e) => chain(e).insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
    },
    { title: "Image", hint: "Upload a picture", keywords: "image picture photo upload", run: () => pickImage() },
    { title: "Divider", hint: "---", keywords: "hr divider rule line", run: (e) => chain(e).setHorizontalRule().run() },
  ];
}

export const slashMenuKey = new PluginKey("slashMenu");

export const SlashCommands = Extension.create<{ items: () => SlashItem[]; onChange: (state: SlashMenuState | null) => void }>({
  name: "slashCommands",
  addOptions() {
    return { items: () => [], onChange: () => {} };
  },
  addProseMirrorPlugins() {
    const { items, onChange } = this.options;
    return [
      Suggestion<SlashItem, SlashItem>({
        editor: this.editor,
        pluginKey: slashMenuKey,
        char: "/",
        allowedPrefixes: [" "],
        items: ({ query }) => {
          const q = query.toLowerCase().trim();
          return items().filter((i) => !q || i.title.toLowerCase().includes(q) || i.keywords.includes(q));
        },
        command: ({ editor, range, props }) => {
          editor
            .chain()
            .focus()
            .deleteRange(range as Range)
            .run();
          props.run(editor);
        },
        render: () => {
          let index = 0;
          let current: { items: SlashItem[]; rect: DOMRect | null; command: (item: SlashItem) => void } | null = null;
          const publish = () => (current ? onChange({ items: current.items, index, rect: current.rect, choose: current.command }) : onChange(null));
          return {
            onStart: (props) => {
              index = 0;
              current = { items: props.items, rect: props.clientRect?.() ?? null, command: props.command };
              publish();
            },
            onUpdate: (props) => {
              index = Math.min(index, Math.max(0, props.items.length - 1));
              current = { items: props.items, rect: props.clientRect?.() ?? null, command: props.command };
              publish();
            },
            onKeyDown: ({ event }) => {
              if (!current?.items.length) return false;
              if (event.key === "ArrowDown" || event.key === "ArrowUp") {
                const step = event.key === "ArrowDown" ? 1 : -1;
                index = (index + step + current.items.length) % current.items.length;
                publish();
                return true;
              }
              if (event.key === "Enter" || event.key === "Tab") {
                current.command(current.items[index]!);
                return true;
              }
              if (event.key === "Escape") {
                current = null;
                publish();
                return true;
              }
              return false;
            },
            onExit: () => {
              current = null;
              publish();
            },
          };
        },
      }),
    ];
  },
});
