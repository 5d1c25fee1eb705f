import { Extension } from "@tiptap/core";
import type { Node as PmNode } from "@tiptap/pm/model";
import { Plugin, PluginKey } from "@tiptap/pm/state";
import { Decoration, DecorationSet } from "@tiptap/pm/view";
import { locateQuote } from "~/utils/text-anchor";
import { textIndex } from "./text-index";

/**
 * Highlights the passages open comment threads are anchored to. Anchors are
 * found again in the current text after every change (the quote with its
 * surrounding text), so they follow edits by anyone. Clicking a highlight
 * selects its thread in the comments panel.
 */

export interface AnchoredThread {
  id: string;
  quote: string;
  prefix?: string | null;
  suffix?: string | null;
}

interface Options {
  threads: () => AnchoredThread[];
  active: () => string | null;
  /** A passage being commented on or rewritten right now. */
  pending: () => { from: number; to: number } | null;
  onSelect: (id: string) => void;
}

export const commentHighlightsKey = new PluginKey<DecorationSet>("commentHighlights");

function decorations(doc: PmNode, options: Options) {
  const index = textIndex(doc);
  const found: Decoration[] = [];
  const active = options.active();
  for (const thread of options.threads()) {
    const at = locateQuote(index.text, { quote: thread.quote, prefix: thread.prefix ?? undefined, suffix: thread.suffix ?? undefined });
    if (!at) continue;
    const from = index.position(at.start);
    const to = index.position(at.end, true);
    if (from === null || to === null || to <= from) continue;
    found.push(
      Decoration.inline(from, to, {
        class: thread.id === active ? "comment-anchor is-active" : "comment-anchor",
        "data-comment-id": thread.id,
      }),
    );
  }
  const pending = options.pending();
  if (pending && pending.to > pending.from && pending.to <= doc.content.size)
    found.push(Decoration.inline(pending.from, pending.to, { class: "selection-pending" }));
  return DecorationSet.create(doc, found);
}

export const CommentHighlights = Extension.create<Options>({
  name: "commentHighlights",
  addOptions() {
    return { threads: () => [], active: () => null, pending: () => null, onSelect: () => {} };
  },
  addProseMirrorPlugins() {
    const options = this.options;
    return [
      new Plugin<DecorationSet>({
        key: commentHighlightsKey,
        state: {
          init: (_, state) => decorations(state.doc, options),
          apply: (tr, set, _old, state) => (tr.docChanged || tr.getMeta(commentHighlightsKey) ? decorations(state.doc, options) : set),
        },
        props: {
          decorations: (state) => commentHighlightsKey.getState(state),
          handleClick: (_view, _pos, event) => {
            const target = (event.target as HTMLElement | null)?.closest?.("[data-comment-id]");
            if (target) options.onSelect(target.getAttribute("data-comment-id")!);
            return false;
          },
        },
      }),
    ];
  },
});
