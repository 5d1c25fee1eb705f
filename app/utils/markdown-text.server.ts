import { Lexer, type Token, type Tokens } from "marked";
import { decodeEntities } from "./html-entities";
import { sectionHeadings } from "./markdown.server";

/**
 * The text a reader of a PRD sees, without Markdown syntax (`**`, `#`, link
 * targets, tags), block by block on lines of their own, and where each of its
 * sections (the ids of `sections()`, the panel's) starts and ends in that text.
 * Comment anchors quote this text, and `locateQuote` finds them in it again.
 */

export interface ReaderText {
  text: string;
  /** Each section's part of `text`: from its heading to the next section's heading. Text before the first heading is in none. */
  sections: { id: string; start: number; end: number }[];
}

const stripTags = (html: string) => decodeEntities(html.replace(/<!--[\s\S]*?-->/g, "").replace(/<[^>]*>/g, " "));

function inline(tokens: Token[] | undefined): string {
  let out = "";
  for (const t of tokens ?? []) {
    switch (t.type) {
      case "text":
        out += "tokens" in t && t.tokens ? inline(t.tokens) : decodeEntities(t.text);
        break;
      case "escape":
      case "codespan":
        out += t.text;
        break;
      case "br":
        out += "\n";
        break;
      case "html":
      case "image":
      case "checkbox":
        break;
      default:
        out += "tokens" in t && t.tokens ? inline(t.tokens) : "";
    }
  }
  return out;
}

function blocks(tokens: Token[]): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case "space":
      case "hr":
      case "def":
        break;
      case "code":
        out.push(t.text);
        break;
      case "html":
        out.push(stripTags(t.text).trim());
        break;
      case "list":
        for (const item of (t as Tokens.List).items) out.push(...blocks(item.tokens));
        break;
      case "blockquote":
        out.push(...blocks((t as Tokens.Blockquote).tokens));
        break;
      case "table": {
        const table = t as Tokens.Table;
        for (const row of [table.header, ...table.rows]) out.push(row.map((cell) => inline(cell.tokens)).join("\t"));
        break;
      }
      default:
        out.push("tokens" in t && t.tokens ? inline(t.tokens) : "text" in t ? decodeEntities(String(t.text)) : "");
    }
  }
  return out.filter((b) => b !== "");
}

/** The reader's text of a Markdown (or HTML) PRD, with its sections' spans. */
export function readerText(markdown: string): ReaderText {
  const lines = markdown.split("\n");
  const headings = sectionHeadings(markdown);
  // Link definitions apply anywhere in the document, whichever part a link is in.
  const links = Lexer.lex(markdown, { gfm: true }).links;
  const parts = [{ id: null as string | null, from: 0 }, ...headings.map((h) => ({ id: h.id as string | null, from: h.line }))];
  let text = "";
  const spans: ReaderText["sections"] = [];
  for (const [i, part] of parts.entries()) {
    const source = lines.slice(part.from, parts[i + 1]?.from ?? lines.length).join("\n");
    const lexer = new Lexer({ gfm: true });
    Object.assign(lexer.tokens.links, links);
    const body = blocks(lexer.lex(source)).join("\n");
    const start = text.length;
    if (body) text += (text ? "\n" : "") + body;
    if (part.id !== null) spans.push({ id: part.id, start: body && start ? start + 1 : start, end: text.length });
  }
  return { text, sections: spans };
}

/** The reader's text of a piece of Markdown (an excerpt, a search snippet): syntax and tags dropped, one block per line. */
export function markdownPlainText(markdown: string): string {
  return blocks(Lexer.lex(markdown, { gfm: true })).join("\n");
}

/** The id of the section whose text contains `offset`, or null (before the first heading, or no headings). */
export function sectionAt(reader: ReaderText, offset: number) {
  return reader.sections.find((s) => offset >= s.start && offset < s.end)?.id ?? null;
}
