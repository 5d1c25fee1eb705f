import { decodeEntities } from "~/utils/html-entities";
import { markdownPlainText } from "~/utils/markdown-text.server";

/**
 * A search snippet for reading: the snippets of the API (search.server.ts,
 * renderSnippet: escaped text of the indexed Markdown with the matches in
 * <mark>) turned into plain-text parts, Markdown syntax gone (`**`, `#`,
 * link targets, tags, table pipes), each part saying whether it is a match.
 * The page renders the parts as text and <mark> elements: nothing is set as
 * HTML.
 */

export interface SnippetPart {
  text: string;
  match: boolean;
}

/** Private-use characters standing for <mark> and </mark> while the Markdown is read (the same as the index's). */
const OPEN = "\uE000";
const CLOSE = "\uE001";
const ELLIPSIS = "…";

/**
 * Markdown syntax the lexer leaves as text in a snippet: the API's snippets
 * are one line (renderSnippet collapses white space), so the block markers of
 * later lines (`## `, `- `, `> `, table pipes, rules, fences) are in the
 * middle of a paragraph; and the cut can split an emphasis run or a link.
 */
function dropLeftovers(text: string) {
  return text
    .replace(/!?\[([^\]\n]*)\]\([^)\s]*\)/g, "$1")
    .replace(/\]\([^)\s]*\)/g, "")
    .replace(/`+/g, "")
    .replace(/\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?/g, " ")
    .replace(/\s*\|\s*/g, " ")
    .replace(/(^|\s)(?:#{1,6}|[-+*>]|={3,})(?=\s|$)/g, "$1")
    .replace(/(^|[\s(])(?:\*{1,3}|_{1,3}|~{1,2})(?=[^\s*_~])/g, "$1")
    .replace(/([^\s*_~])(?:\*{1,3}|_{1,3}|~{1,2})(?=$|[\s).,;:!?…])/g, "$1");
}

export function snippetParts(html: string): SnippetPart[] {
  // The API's snippet has no tags but <mark>: back to the indexed text, the matches as markers.
  let raw = decodeEntities(
    html
      .replace(/<mark>/g, OPEN)
      .replace(/<\/mark>/g, CLOSE)
      .replace(/<[^>]*>/g, ""),
  ).trim();
  const lead = raw.startsWith(ELLIPSIS);
  const trail = raw.endsWith(ELLIPSIS) && raw.length > 1;
  raw = raw.slice(lead ? 1 : 0, trail ? -1 : undefined);
  const plain = dropLeftovers(markdownPlainText(raw)).replace(/\s+/g, " ").trim();
  const text = `${lead ? ELLIPSIS : ""}${plain}${trail ? ELLIPSIS : ""}`;

  // Markers balanced as renderSnippet does: a close without an open is dropped, an open is closed at the end.
  const parts: SnippetPart[] = [];
  let match = false;
  for (const piece of text.split(/([\uE000\uE001])/u)) {
    if (piece === OPEN) match = true;
    else if (piece === CLOSE) match = false;
    else if (piece) {
      const last = parts.at(-1);
      if (last && last.match === match) last.text += piece;
      else parts.push({ text: piece, match });
    }
  }
  return parts;
}
