import { Lexer, type Token, type Tokens } from "marked";

/**
 * PRD markdown → Notion blocks, within the API's limits: at most 2,000
 * characters per rich-text content, 100 rich-text items and 100 children per
 * array, two levels of nesting and 1,000 blocks per request. `chunkBlocks`
 * splits the page into requests of at most 100 top-level blocks: the first
 * goes with POST /v1/pages, the others with PATCH /v1/blocks/{id}/children.
 */

export const NOTION_LIMITS = { children: 100, textContent: 2000, richTextItems: 100, blocksPerRequest: 1000, nesting: 2, payloadBytes: 450_000 };

interface Annotations {
  bold: boolean;
  italic: boolean;
  strikethrough: boolean;
  underline: boolean;
  code: boolean;
  color: string;
}
export interface RichText {
  type: "text";
  text: { content: string; link: { url: string } | null };
  annotations: Annotations;
}
export interface NotionBlock {
  object: "block";
  type: string;
  [body: string]: unknown;
}

const PLAIN: Annotations = { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: "default" };

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  copy: "©",
  reg: "®",
  hellip: "…",
  mdash: "—",
  ndash: "–",
};
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1]?.toLowerCase() === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
const stripTags = (html: string) => decode(html.replace(/<br\s*\/?>/gi, "\n").replace(/<[^>]*>/g, ""));

/** Links Notion accepts: absolute http(s) URLs up to 2,000 characters. */
const safeUrl = (href: string | undefined | null) => (href && /^https?:\/\/[^\s]+$/i.test(href) && href.length <= 2000 ? href : null);

/** Splits text into pieces of at most `size` UTF-16 units without cutting a surrogate pair. */
export function splitText(text: string, size = NOTION_LIMITS.textContent): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = Math.min(i + size, text.length);
    if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1]!)) end--;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

function inline(tokens: Token[] | undefined, marks: Partial<Annotations>, link: string | null, out: RichText[]) {
  const push = (content: string, m = marks, l = link) => {
    if (content) out.push({ type: "text", text: { content, link: l ? { url: l } : null }, annotations: { ...PLAIN, ...m } });
  };
  for (const t of tokens ?? []) {
    switch (t.type) {
      case "text":
        if ("tokens" in t && t.tokens?.length) inline(t.tokens, marks, link, out);
        else push(decode(t.text));
        break;
      case "escape":
        push(t.text);
        break;
      case "strong":
        inline(t.tokens, { ...marks, bold: true }, link, out);
        break;
      case "em":
        inline(t.tokens, { ...marks, italic: true }, link, out);
        break;
      case "del":
        inline(t.tokens, { ...marks, strikethrough: true }, link, out);
        break;
      case "codespan":
        push(t.text, { ...marks, code: true });
        break;
      case "link":
        inline(t.tokens, marks, safeUrl(t.href) ?? link, out);
        break;
      case "image":
        push(t.text || t.href, marks, safeUrl(t.href) ?? link);
        break;
      case "br":
        push("\n");
        break;
      case "html":
        push(stripTags(t.text));
        break;
      default:
        if ("text" in t && typeof t.text === "string") push(decode(t.text));
    }
  }
}

const same = (a: RichText, b: RichText) => a.text.link?.url === b.text.link?.url && JSON.stringify(a.annotations) === JSON.stringify(b.annotations);

/** Rich text of inline tokens: neighbours with the same marks merged, then every content cut to 2,000 characters. */
export function richText(tokens: Token[] | undefined, marks: Partial<Annotations> = {}): RichText[] {
  const raw: RichText[] = [];
  inline(tokens, marks, null, raw);
  const merged: RichText[] = [];
  for (const r of raw) {
    const last = merged.at(-1);
    if (last && same(last, r)) last.text.content += r.text.content;
    else merged.push({ ...r, text: { ...r.text } });
  }
  return merged.flatMap((r) => splitText(r.text.content).map((content) => ({ ...r, text: { ...r.text, content } })));
}

const plain = (text: string, marks: Partial<Annotations> = {}): RichText[] =>
  splitText(text).map((content) => ({ type: "text", text: { content, link: null }, annotations: { ...PLAIN, ...marks } }));

const block = (type: string, body: Record<string, unknown>): NotionBlock => ({ object: "block", type, [type]: body });

/** A text block; more than 100 rich-text items continue in further blocks of the same type (children go to the last). */
function textBlocks(type: string, rich: RichText[], extra: Record<string, unknown> = {}): NotionBlock[] {
  const parts: RichText[][] = [];
  for (let i = 0; i < rich.length; i += NOTION_LIMITS.richTextItems) parts.push(rich.slice(i, i + NOTION_LIMITS.richTextItems));
  if (!parts.length) parts.push([]);
  return parts.map((part, i) => block(type, { rich_text: part, ...(i === parts.length - 1 ? extra : {}) }));
}

const LANGUAGES = new Set(
  "abap arduino bash basic c clojure coffeescript c++ c# css dart diff docker elixir elm erlang flow fortran f# gherkin glsl go graphql groovy haskell html java javascript json julia kotlin latex less lisp livescript lua makefile markdown markup matlab mermaid nix objective-c ocaml pascal perl php powershell prolog protobuf python r reason ruby rust sass scala scheme scss shell solidity sql swift typescript verilog vhdl webassembly xml yaml".split(
    " ",
  ),
);
const ALIASES: Record<string, string> = {
  ts: "typescript",
  tsx: "typescript",
  js: "javascript",
  jsx: "javascript",
  sh: "shell",
  zsh: "shell",
  console: "shell",
  yml: "yaml",
  py: "python",
  rb: "ruby",
  rs: "rust",
  cpp: "c++",
  cs: "c#",
  csharp: "c#",
  md: "markdown",
  dockerfile: "docker",
  kt: "kotlin",
  objc: "objective-c",
  ps1: "powershell",
  golang: "go",
  htm: "html",
  svg: "xml",
};
/** Notion's code-block language for a fence's info string ("plain text" when it has none). */
export function notionLanguage(info: string | undefined) {
  const lang = (info ?? "").trim().split(/\s+/)[0]!.toLowerCase();
  const name = ALIASES[lang] ?? lang;
  return LANGUAGES.has(name) ? name : "plain text";
}

const canNest = (depth: number) => depth < NOTION_LIMITS.nesting;

function tableBlocks(t: Tokens.Table, depth: number): NotionBlock[] {
  const width = Math.max(1, t.header.length);
  const cells = (row: Tokens.TableCell[]) => Array.from({ length: width }, (_, i) => richText(row[i]?.tokens).slice(0, NOTION_LIMITS.richTextItems));
  if (!canNest(depth)) {
    return [t.header, ...t.rows].map((row) => block("paragraph", { rich_text: plain(row.map((c) => c.text).join(" | ")) }));
  }
  const tableRow = (row: Tokens.TableCell[]) => block("table_row", { cells: cells(row) });
  const perTable = NOTION_LIMITS.children - 1;
  const out: NotionBlock[] = [];
  for (let i = 0; i === 0 || i < t.rows.length; i += perTable) {
    const rows = t.rows.slice(i, i + perTable);
    out.push(block("table", { table_width: width, has_column_header: true, has_row_header: false, children: [tableRow(t.header), ...rows.map(tableRow)] }));
  }
  return out;
}

/** Blocks with children where nesting allows; deeper content follows as siblings. */
function withChildren(type: string, rich: RichText[], children: NotionBlock[], depth: number, extra: Record<string, unknown> = {}) {
  if (!children.length) return textBlocks(type, rich, extra);
  if (canNest(depth)) return textBlocks(type, rich, { ...extra, children });
  return [...textBlocks(type, rich, extra), ...children];
}

function listBlocks(list: Tokens.List, depth: number): NotionBlock[] {
  const out: NotionBlock[] = [];
  for (const item of list.items) {
    const type = item.task ? "to_do" : list.ordered ? "numbered_list_item" : "bulleted_list_item";
    const tokens = item.tokens.filter((tok) => tok.type !== "checkbox");
    const first = tokens[0] && (tokens[0].type === "text" || tokens[0].type === "paragraph") ? tokens[0] : null;
    const rich = first ? richText((first as Tokens.Text).tokens ?? [{ type: "text", raw: first.raw, text: (first as Tokens.Text).text } as Token]) : [];
    const children = convert(first ? tokens.slice(1) : tokens, canNest(depth) ? depth + 1 : depth);
    out.push(...withChildren(type, rich, children, depth, item.task ? { checked: !!item.checked } : {}));
  }
  return out;
}

function convert(tokens: Token[], depth: number): NotionBlock[] {
  const out: NotionBlock[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case "heading":
        out.push(...textBlocks(`heading_${Math.min(3, t.depth)}`, richText(t.tokens)));
        break;
      case "paragraph": {
        const only = t.tokens?.length === 1 ? t.tokens[0] : null;
        const url = only?.type === "image" ? safeUrl(only.href) : null;
        if (only?.type === "image" && url) out.push(block("image", { type: "external", external: { url }, caption: plain(only.text ?? "") }));
        else out.push(...textBlocks("paragraph", richText(t.tokens)));
        break;
      }
      case "text":
        out.push(...textBlocks("paragraph", richText(t.tokens ?? [t])));
        break;
      case "list":
        out.push(...listBlocks(t as Tokens.List, depth));
        break;
      case "code": {
        const pieces = plain(t.text);
        for (let i = 0; i < Math.max(1, pieces.length); i += NOTION_LIMITS.richTextItems) {
          out.push(block("code", { rich_text: pieces.slice(i, i + NOTION_LIMITS.richTextItems), language: notionLanguage(t.lang) }));
        }
        break;
      }
      case "table":
        out.push(...tableBlocks(t as Tokens.Table, depth));
        break;
      case "hr":
        out.push(block("divider", {}));
        break;
      case "blockquote": {
        const inner = (t as Tokens.Blockquote).tokens;
        const lead = inner[0]?.type === "paragraph" ? inner[0] : null;
        const rest = convert(lead ? inner.slice(1) : inner, canNest(depth) ? depth + 1 : depth);
        out.push(...withChildren("quote", lead ? richText(lead.tokens) : [], rest, depth));
        break;
      }
      case "html": {
        const text = stripTags(t.text).trim();
        if (text) out.push(...textBlocks("paragraph", plain(text)));
        break;
      }
      case "space":
      case "def":
        break;
      default:
        if ("text" in t && typeof t.text === "string" && t.text.trim()) out.push(...textBlocks("paragraph", plain(decode(t.text))));
    }
  }
  return out;
}

/** The blocks of a markdown document (top level of a page). */
export function markdownToNotionBlocks(markdown: string): NotionBlock[] {
  return capChildren(convert(Lexer.lex(markdown, { gfm: true }), 0));
}

const childrenOf = (b: NotionBlock) => (b[b.type] as { children?: NotionBlock[] } | undefined)?.children ?? [];

/** Children arrays over 100 keep the first 100; the rest follow the block as siblings. */
function capChildren(blocks: NotionBlock[]): NotionBlock[] {
  const out: NotionBlock[] = [];
  for (const b of blocks) {
    const body = b[b.type] as { children?: NotionBlock[] } | undefined;
    if (!body?.children) {
      out.push(b);
      continue;
    }
    const kids = capChildren(body.children);
    body.children = kids.slice(0, NOTION_LIMITS.children);
    out.push(b, ...kids.slice(NOTION_LIMITS.children));
  }
  return out;
}

export const countBlocks = (b: NotionBlock): number => 1 + childrenOf(b).reduce((n, c) => n + countBlocks(c), 0);

/** Requests of at most 100 top-level blocks, 1,000 blocks in all and ~450 KB each, in document order. */
export function chunkBlocks(blocks: NotionBlock[]): NotionBlock[][] {
  const chunks: NotionBlock[][] = [];
  let current: NotionBlock[] = [];
  let count = 0;
  let bytes = 0;
  for (const b of blocks) {
    const n = countBlocks(b);
    const size = Buffer.byteLength(JSON.stringify(b));
    if (
      current.length &&
      (current.length >= NOTION_LIMITS.children || count + n > NOTION_LIMITS.blocksPerRequest || bytes + size > NOTION_LIMITS.payloadBytes)
    ) {
      chunks.push(current);
      current = [];
      count = 0;
      bytes = 0;
    }
    current.push(b);
    count += n;
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/** All text of some blocks, in order (tests and previews). */
export function blocksText(blocks: NotionBlock[]): string {
  const parts: string[] = [];
  const visit = (b: NotionBlock) => {
    const body = b[b.type] as { rich_text?: RichText[]; cells?: RichText[][] } | undefined;
    for (const r of body?.rich_text ?? []) parts.push(r.text.content);
    for (const cell of body?.cells ?? []) for (const r of cell) parts.push(r.text.content);
    childrenOf(b).forEach(visit);
  };
  blocks.forEach(visit);
  return parts.join("");
}
