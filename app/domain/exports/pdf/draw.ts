import type { Flow, PageCanvas } from "./canvas";
import type { GlyphEncoder } from "./encoder.server";
import type { Measurer } from "./measure";
import type { TextStyle, Theme } from "./theme";
import { GREY } from "./theme";
import { type Line, wrapRuns } from "./wrap";

const LEADING_DEFAULT = 1.3;

/** Drawing wrapped lines: text, inline-code backgrounds, underlines, strike-through and link areas. */

export interface HeadingMark {
  level: number;
  text: string;
  /** Index of the page within the flow it was laid out in. */
  page: number;
  /** Top of the heading on that page. */
  y: number;
}

export interface MediaLookup {
  image(href: string): { name: string; width: number; height: number } | undefined;
  /** undefined: not a known diagram; null: could not be rendered. */
  diagram(source: string): { name: string; width: number; height: number } | null | undefined;
}

export interface Ctx {
  flow: Flow;
  m: Measurer;
  enc: GlyphEncoder;
  theme: Theme;
  media: MediaLookup;
  /** Headings h1–h3 of the top level, in order, as laid out. */
  headings: HeadingMark[];
  /** Every heading by its anchor id (slug), for in-document links. */
  anchors: Map<string, { page: number; y: number }>;
  slugs: Map<string, number>;
  /** 0 at the top level; > 0 inside lists and quotes. */
  nesting: number;
}

/** Ascent and descent of DejaVu Sans in em. */
export const ASCENT = 0.928;
export const DESCENT = 0.236;

export type Align = "left" | "center" | "right" | null | undefined;

/** Baseline of a line of height `height` (font `size`) whose top is `top`. */
export function baselineOf(top: number, height: number, size: number) {
  return top - (height - (ASCENT + DESCENT) * size) / 2 - ASCENT * size;
}

export function drawLine(page: PageCanvas, enc: GlyphEncoder, line: Line, x: number, top: number, height: number, align: Align = "left", width = 0) {
  const baseline = baselineOf(top, height, line.size);
  const left = align === "right" ? x + width - line.width : align === "center" ? x + (width - line.width) / 2 : x;
  const shows: [number, number, Theme["primary"], string][] = [];
  for (const f of line.fragments) {
    const { style } = f;
    if (style.code) page.fillRect(left + f.x - 1, baseline - DESCENT * style.size - 0.8, f.width + 2, (ASCENT + DESCENT) * style.size + 1.6, GREY.codeBg);
    shows.push([left + f.x, baseline, style.color, enc.show(f.text, style.face, style.size)]);
  }
  page.text(shows);
  for (const f of line.fragments) {
    const { style } = f;
    const fx = left + f.x;
    if (style.link) {
      page.line(fx, baseline - 1.3, fx + f.width, baseline - 1.3, style.color, 0.5);
      const rect: [number, number, number, number] = [fx, baseline - DESCENT * style.size, fx + f.width, baseline + ASCENT * style.size];
      page.link(style.link.startsWith("#") ? { rect, anchor: style.link.slice(1) } : { rect, url: style.link });
    }
    if (style.strike) page.line(fx, baseline + style.size * 0.3, fx + f.width, baseline + style.size * 0.3, style.color, 0.6);
  }
}

/** Lines one under the other in the flow's column, breaking pages between lines. */
export function flowLines(ctx: Ctx, lines: Line[], leading: number, align: Align = "left") {
  const { flow } = ctx;
  for (const line of lines) {
    const height = line.size * leading;
    flow.ensure(height);
    drawLine(flow.page, ctx.enc, line, flow.x, flow.y, height, align, flow.width);
    flow.y -= height;
  }
}

/** Plain text in one style, wrapped, drawn from `top` down; returns the y under it. */
export function textBlock(
  page: PageCanvas,
  enc: GlyphEncoder,
  m: Measurer,
  text: string,
  style: TextStyle,
  box: { x: number; top: number; width: number; leading?: number; align?: Align; maxLines?: number },
) {
  const leading = box.leading ?? LEADING_DEFAULT;
  let top = box.top;
  let lines = wrapRuns([{ text: m.clean(text, style.face), style }], box.width, m, style.size);
  if (box.maxLines && lines.length > box.maxLines) {
    lines = lines.slice(0, box.maxLines);
    const last = lines[lines.length - 1]!.fragments.at(-1);
    if (last) last.text = `${truncate(m, last.text, style, Math.max(last.width - m.width("…", style.face, style.size), 0)).replace(/…$/, "")}…`;
  }
  for (const line of lines) {
    const height = line.size * leading;
    drawLine(page, enc, line, box.x, top, height, box.align, box.width);
    top -= height;
  }
  return top;
}

/** `text` cut with an ellipsis to fit `width`. */
export function truncate(m: Measurer, text: string, style: TextStyle, width: number) {
  const clean = m.clean(text, style.face).replace(/\s+/g, " ");
  if (m.width(clean, style.face, style.size) <= width) return clean;
  const chars = [...clean];
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (m.width(`${chars.slice(0, mid).join("")}…`, style.face, style.size) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${chars.slice(0, lo).join("").trimEnd()}…`;
}
