import type { Token, Tokens } from "marked";
import { codeBox, picture, sideBar } from "./boxes";
import { baselineOf, type Ctx, flowLines } from "./draw";
import { slugify } from "~/utils/markdown.server";
import { decodeEntities, htmlImageSources, isMermaid } from "../markdown-tokens";
import { headingText, imgAlt, inlineRuns, textRuns } from "./inline";
import { layoutTable } from "./table";
import { BODY_SIZE, bodyStyle, GREY, headingStyle, LEADING, type Rgb, type TextStyle } from "./theme";
import { type Run, wrapRuns } from "./wrap";

/** Block-level markdown tokens (marked.lexer) laid out into the flow. */

export interface BlockOptions {
  /** Tight list item: paragraphs without space between them. */
  tight?: boolean;
  /** Nesting depth of lists (bullet shape). */
  listDepth?: number;
  /** Text colour (quotes are muted). */
  color?: Rgb;
}

const BULLETS = ["•", "◦", "▪"];

export function layoutBlocks(tokens: Token[], ctx: Ctx, options: BlockOptions = {}) {
  for (const token of tokens) layoutBlock(token, ctx, options);
}

function layoutBlock(token: Token, ctx: Ctx, options: BlockOptions) {
  switch (token.type) {
    case "heading":
      return heading(token as Tokens.Heading, ctx);
    case "paragraph":
    case "text":
      return paragraph((token as Tokens.Paragraph).tokens ?? [{ type: "text", raw: token.raw, text: (token as Tokens.Text).text }], ctx, options);
    case "list":
      return list(token as Tokens.List, ctx, options);
    case "code": {
      const code = token as Tokens.Code;
      if (!isMermaid(token)) return codeBox(ctx, code.text);
      const diagram = ctx.media.diagram(code.text);
      if (diagram) return picture(ctx, diagram);
      return codeBox(ctx, code.text, {
        label: "Diagram could not be rendered — Mermaid source:",
        background: ctx.theme.tint,
        border: ctx.theme.primary,
      });
    }
    case "blockquote":
      return quote(token as Tokens.Blockquote, ctx, options);
    case "hr": {
      const { flow } = ctx;
      flow.gap(4);
      flow.ensure(12);
      flow.page.line(flow.x, flow.y - 6, flow.x + flow.width, flow.y - 6, GREY.rule, 0.8);
      flow.y -= 12;
      flow.gap(6);
      return;
    }
    case "table":
      return layoutTable(token as Tokens.Table, ctx);
    case "html":
      return html((token as Tokens.HTML).text, ctx, options);
    case "space":
    case "def":
    case "checkbox":
      return;
    default: {
      const generic = token as Tokens.Generic;
      if (Array.isArray(generic.tokens)) paragraph(generic.tokens, ctx, options);
      else if (typeof generic.text === "string") paragraph([{ type: "text", raw: generic.text, text: generic.text }], ctx, options);
    }
  }
}

/** The visible text of a block of raw HTML: scripts, styles and comments dropped, tags removed. */
function htmlText(html: string) {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|tr|h[1-6])\s*>/gi, "\n")
    .replace(/<[^>]*>/g, "");
  return decodeEntities(text)
    .replace(/[ \t]+/g, " ")
    .replace(/\n\s*\n+/g, "\n")
    .trim();
}

/** Raw HTML: its text as paragraphs, its <img> tags as pictures (when the image was loaded) or alt text. */
function html(source: string, ctx: Ctx, options: BlockOptions) {
  const text = (chunk: string) => {
    const plain = htmlText(chunk);
    if (plain) paragraph([{ type: "text", raw: plain, text: plain }], ctx, options, true);
  };
  let from = 0;
  for (const match of source.matchAll(/<img\b[^>]*>/gi)) {
    text(source.slice(from, match.index));
    from = match.index + match[0].length;
    const src = htmlImageSources(match[0])[0];
    const image = src ? ctx.media.image(src) : undefined;
    if (image) picture(ctx, image);
    else if (src) text(`[Image: ${imgAlt(match[0]) || src}]`);
  }
  text(source.slice(from));
}

function heading(token: Tokens.Heading, ctx: Ctx) {
  const { flow, m, theme } = ctx;
  const style = headingStyle(token.depth, theme);
  const lines = wrapRuns(textRuns(token.tokens, style, theme, m), flow.width, m, style.size);
  const height = lines.reduce((sum, line) => sum + line.size * 1.25, 0);
  flow.gap(token.depth <= 2 ? 12 : 8);
  // Keep the heading with at least two lines of what follows.
  flow.ensure(height + BODY_SIZE * LEADING * 2 + 8);
  const text = headingText(token.tokens);
  // Anchors as the HTML export names them (app/utils/markdown.server.ts), for [links](#section).
  const slug = slugify(text);
  const seen = ctx.slugs.get(slug) ?? 0;
  ctx.slugs.set(slug, seen + 1);
  ctx.anchors.set(seen ? `${slug}-${seen}` : slug, { page: flow.pageIndex, y: flow.y });
  if (ctx.nesting === 0 && token.depth <= 3) {
    ctx.headings.push({ level: token.depth, text: text || "Untitled section", page: flow.pageIndex, y: flow.y });
  }
  flowLines(ctx, lines, 1.25);
  if (token.depth === 1) {
    flow.y -= 3;
    flow.page.line(flow.x, flow.y, flow.x + flow.width, flow.y, theme.tint, 1.2);
    flow.y -= 3;
  }
  flow.gap(5);
}

/** Inline content as wrapped lines; images that were loaded are placed between lines. */
function paragraph(tokens: Token[], ctx: Ctx, options: BlockOptions, plain = false) {
  const { flow, m, theme } = ctx;
  const base: TextStyle = { ...bodyStyle(), ...(options.color ? { color: options.color } : {}) };
  const items = plain ? [{ text: m.clean((tokens[0] as Tokens.Text).text, "regular"), style: base }] : inlineRuns(tokens, base, theme, m);
  let runs: Run[] = [];
  const flush = () => {
    if (runs.some((run) => run.text.trim())) flowLines(ctx, wrapRuns(runs, flow.width, m, base.size), LEADING);
    runs = [];
  };
  for (const item of items) {
    if (!("image" in item)) {
      runs.push(item);
      continue;
    }
    const image = ctx.media.image(item.image.href);
    if (image) {
      flush();
      picture(ctx, image);
    } else {
      runs.push({ text: m.clean(`[Image: ${item.image.alt || item.image.href}]`, "italic"), style: { ...base, face: "italic", color: GREY.muted } });
    }
  }
  flush();
  flow.gap(options.tight ? 2 : 6);
}

function list(token: Tokens.List, ctx: Ctx, options: BlockOptions) {
  const { flow, m, enc, theme } = ctx;
  const depth = options.listDepth ?? 0;
  const size = BODY_SIZE;
  const lh = size * LEADING;
  const start = typeof token.start === "number" ? token.start : 1;
  const markers = token.items.map((item, i) => {
    if (item.task) return item.checked ? "☑" : "☐";
    return token.ordered ? `${start + i}.` : BULLETS[depth % BULLETS.length]!;
  });
  const widths = markers.map((marker) => m.width(marker, "regular", size));
  const indent = Math.max(14, Math.max(...widths) + 7);
  const inner: Ctx = { ...ctx, nesting: ctx.nesting + 1 };
  for (const [i, item] of token.items.entries()) {
    flow.ensure(lh);
    const marker = markers[i]!;
    const x = token.ordered && !item.task ? flow.x + indent - 5 - widths[i]! : flow.x + 2;
    const color = token.ordered || item.task ? (options.color ?? GREY.text) : theme.primaryText;
    flow.page.text([[x, baselineOf(flow.y, lh, size), color, enc.show(marker, "regular", size)]]);
    const blocks = item.tokens.filter((t) => t.type !== "checkbox");
    flow.indented(indent, 0, () => {
      if (blocks.length === 0) flow.y -= lh;
      layoutBlocks(blocks, inner, { ...options, tight: !token.loose, listDepth: depth + 1 });
    });
  }
  flow.gap(token.loose ? 4 : 5);
}

function quote(token: Tokens.Blockquote, ctx: Ctx, options: BlockOptions) {
  const { flow, theme } = ctx;
  flow.ensure(BODY_SIZE * LEADING);
  const from = { page: flow.pageIndex, y: flow.y };
  const x = flow.x;
  flow.indented(14, 0, () => layoutBlocks(token.tokens, { ...ctx, nesting: ctx.nesting + 1 }, { ...options, color: GREY.muted }));
  sideBar(ctx, x + 2, from, { page: flow.pageIndex, y: Math.min(flow.y + 5, flow.pageIndex === from.page ? from.y : Infinity) }, theme.accent);
  flow.gap(4);
}
