import type { PageCanvas } from "./canvas";
import { drawLine, truncate } from "./draw";
import type { GlyphEncoder } from "./encoder.server";
import type { Measurer } from "./measure";
import { CONTENT_WIDTH, GREY, PAGE, type TextStyle, type Theme } from "./theme";
import { wrapRuns } from "./wrap";

/** Running header (company name, document title) and footer ("Page n of m") of every page. */

function label(
  page: PageCanvas,
  enc: GlyphEncoder,
  m: Measurer,
  text: string,
  style: TextStyle,
  x: number,
  top: number,
  width: number,
  align: "left" | "right",
) {
  const line = wrapRuns([{ text: truncate(m, text, style, width), style }], Number.POSITIVE_INFINITY, m, style.size)[0]!;
  drawLine(page, enc, line, x, top, style.size * 1.3, align, width);
}

export function decoratePage(
  page: PageCanvas,
  info: { number: number; total: number; title: string; header: boolean },
  theme: Theme,
  m: Measurer,
  enc: GlyphEncoder,
) {
  const small: TextStyle = { face: "regular", size: 8.5, color: GREY.muted };
  const footerTop = PAGE.bottom - 26;
  const pageLabel = `Page ${info.number} of ${info.total}`;
  const labelWidth = m.width(pageLabel, "regular", small.size) + 2;
  label(page, enc, m, pageLabel, small, PAGE.left + CONTENT_WIDTH - labelWidth, footerTop, labelWidth, "right");
  if (!info.header) return;
  page.line(PAGE.left, footerTop + 6, PAGE.left + CONTENT_WIDTH, footerTop + 6, GREY.rule, 0.5);
  label(page, enc, m, info.title, small, PAGE.left, footerTop, CONTENT_WIDTH - labelWidth - 20, "left");
  const headerTop = PAGE.height - 36;
  const company = theme.companyName;
  const companyWidth = company ? Math.min(m.width(company, "bold", small.size) + 2, CONTENT_WIDTH / 2) : 0;
  if (company) label(page, enc, m, company, { ...small, face: "bold", color: theme.primaryText }, PAGE.left, headerTop, companyWidth, "left");
  page.line(PAGE.left, headerTop - 16, PAGE.left + CONTENT_WIDTH, headerTop - 16, theme.primary, 0.8);
}
