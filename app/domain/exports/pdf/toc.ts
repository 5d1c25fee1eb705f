import { Flow } from "./canvas";
import { drawLine, textBlock } from "./draw";
import type { GlyphEncoder } from "./encoder.server";
import type { Measurer } from "./measure";
import { GREY, headingStyle, type TextStyle, type Theme } from "./theme";
import { wrapRuns } from "./wrap";

/**
 * The table of contents: headings h1–h3 with their page numbers, linked to
 * the headings. Laid out twice: once with placeholder numbers to know how
 * many pages it takes (page numbers never change its line breaks, they sit
 * in a fixed column), then with the real numbers.
 */

export interface TocEntry {
  level: number;
  text: string;
}

const NUMBER_COLUMN = 34;

export function layoutToc(entries: TocEntry[], pageNumbers: number[] | null, theme: Theme, m: Measurer, enc: GlyphEncoder): Flow {
  const flow = new Flow();
  const title = headingStyle(1, theme);
  flow.y = textBlock(flow.page, enc, m, "Contents", title, { x: flow.x, top: flow.y, width: flow.width, leading: 1.25 });
  flow.y -= 14;
  const styles: TextStyle[] = [
    { face: "bold", size: 10.5, color: GREY.text },
    { face: "regular", size: 10, color: GREY.text },
    { face: "regular", size: 9.5, color: GREY.muted },
  ];
  for (const [i, entry] of entries.entries()) {
    const style = styles[Math.min(entry.level, 3) - 1]!;
    const indent = (Math.min(entry.level, 3) - 1) * 16;
    const leading = 1.5;
    if (entry.level === 1 && i > 0) flow.gap(4);
    const lines = wrapRuns([{ text: m.clean(entry.text, style.face), style }], flow.width - indent - NUMBER_COLUMN - 8, m, style.size);
    const number = pageNumbers ? String(pageNumbers[i] ?? "") : "000";
    for (const [k, line] of lines.entries()) {
      const height = line.size * leading;
      flow.ensure(height);
      const x = flow.x + indent;
      drawLine(flow.page, enc, line, x, flow.y, height);
      if (k === lines.length - 1) {
        const numberLine = wrapRuns([{ text: number, style }], NUMBER_COLUMN, m, style.size)[0]!;
        const right = flow.x + flow.width;
        drawLine(flow.page, enc, numberLine, right - NUMBER_COLUMN, flow.y, height, "right", NUMBER_COLUMN);
        const leaderY = flow.y - height * 0.68;
        const from = x + line.width + 6;
        const to = right - numberLine.width - 6;
        if (to - from > 8) flow.page.line(from, leaderY, to, leaderY, GREY.rule, 0.9, "0.1 3");
      }
      flow.page.link({ rect: [x, flow.y - height, flow.x + flow.width, flow.y], heading: i });
      flow.y -= height;
    }
  }
  return flow;
}
