import type { Node as PmNode } from "@tiptap/pm/model";

/**
 * The document's text as a reader sees it (blocks separated by newlines),
 * with a map from text offsets back to editor positions. Comment anchors
 * (app/utils/text-anchor.ts) are located in this text.
 */
export interface TextIndex {
  text: string;
  /** The editor position of a text offset (for a range end, pass `end: true`). */
  position(offset: number, end?: boolean): number | null;
  /** The text offset of an editor position. */
  offset(pos: number): number;
}

export function textIndex(doc: PmNode): TextIndex {
  const segments: { from: number; pos: number; length: number }[] = [];
  let text = "";
  doc.descendants((node, pos) => {
    if (node.isTextblock && text.length) text += "\n";
    if (node.isText && node.text) {
      segments.push({ from: text.length, pos, length: node.text.length });
      text += node.text;
    }
    return true;
  });
  return {
    text,
    position(offset, end = false) {
      for (const s of segments) {
        if (offset >= s.from && (offset < s.from + s.length || (end && offset === s.from + s.length))) return s.pos + (offset - s.from);
      }
      return null;
    },
    offset(pos) {
      let best = 0;
      for (const s of segments) {
        if (pos < s.pos) break;
        best = pos <= s.pos + s.length ? s.from + (pos - s.pos) : s.from + s.length;
      }
      return best;
    },
  };
}
