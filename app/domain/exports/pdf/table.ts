import type { Tokens } from "marked";
import { type Align, type Ctx, drawLine } from "./draw";
import { textRuns } from "./inline";
import type { Measurer } from "./measure";
import { CONTENT_BOTTOM, CONTENT_TOP, GREY, TABLE_SIZE, type TextStyle } from "./theme";
import { type Line, type Run, wrapRuns } from "./wrap";

/**
 * GFM tables: column widths from the cells' natural and minimum widths,
 * cells wrapped, rows that do not fit moved to the next page (or split
 * between lines when taller than a page), the header row repeated on every
 * page the table continues on.
 */

const PAD = 4;
const LEADING = 1.35;
const MIN_COLUMN = 28;

/** Widest unbroken line and longest word of a cell, padding included. */
function cellWidths(runs: Run[], m: Measurer): [number, number] {
  let natural = 0;
  let line = 0;
  let word = 0;
  for (const run of runs) {
    const { face, size } = run.style;
    const parts = run.text.split("\n");
    for (const [i, part] of parts.entries()) {
      if (i > 0) {
        natural = Math.max(natural, line);
        line = 0;
      }
      line += m.width(part, face, size);
      for (const w of part.split(" ")) word = Math.max(word, m.width(w, face, size));
    }
  }
  return [Math.max(natural, line) + PAD * 2, word + PAD * 2];
}

/**
 * Widths that add up to `available`: everything at its natural width when it
 * fits (stretched); otherwise columns narrower than an even share keep their
 * natural width and the wide ones share the rest in proportion, never below
 * their longest word (unless even the longest words do not fit: then all
 * columns shrink in proportion and words are cut).
 */
export function columnWidths(natural: number[], minimum: number[], available: number): number[] {
  const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
  const nat = natural.map((w) => Math.max(w, MIN_COLUMN));
  const min = minimum.map((w, i) => Math.min(Math.max(w, MIN_COLUMN), available * 0.35, nat[i]!));
  const total = sum(nat);
  if (total <= available) return nat.map((w) => w + ((available - total) * w) / total);
  const minTotal = sum(min);
  if (minTotal >= available) return min.map((w) => (w * available) / minTotal);
  const widths = new Array<number>(nat.length).fill(0);
  const open = new Set(nat.keys());
  let room = available;
  for (let changed = true; changed && open.size > 0; ) {
    changed = false;
    const share = room / open.size;
    for (const i of open) {
      if (nat[i]! <= share) {
        widths[i] = nat[i]!;
        room -= nat[i]!;
        open.delete(i);
        changed = true;
      }
    }
  }
  const wide = [...open];
  let wideTotal = sum(wide.map((i) => nat[i]!));
  // Wide columns share the room in proportion to their natural width; one that would fall under its minimum gets the minimum.
  for (let changed = true; changed; ) {
    changed = false;
    for (const i of wide) {
      if (widths[i]) continue;
      const width = (room * nat[i]!) / wideTotal;
      if (width < min[i]!) {
        widths[i] = min[i]!;
        room -= min[i]!;
        wideTotal -= nat[i]!;
        changed = true;
      }
    }
  }
  for (const i of wide) if (!widths[i]) widths[i] = (room * nat[i]!) / wideTotal;
  const scale = available / sum(widths);
  return widths.map((w) => w * scale);
}

export function layoutTable(token: Tokens.Table, ctx: Ctx) {
  const { flow, m, theme, enc } = ctx;
  const size = TABLE_SIZE;
  const lh = size * LEADING;
  const base: TextStyle = { face: "regular", size, color: GREY.text };
  const bold: TextStyle = { face: "bold", size, color: GREY.text };
  const cols = token.header.length;
  if (cols === 0) return;
  const align: Align[] = token.align.map((a) => a ?? "left");
  const header = token.header.map((cell) => textRuns(cell.tokens, bold, theme, m));
  const rows = token.rows.map((row) => Array.from({ length: cols }, (_, c) => textRuns(row[c]?.tokens, base, theme, m)));

  const natural = new Array<number>(cols).fill(0);
  const minimum = new Array<number>(cols).fill(0);
  for (const cells of [header, ...rows]) {
    for (let c = 0; c < cols; c++) {
      const [n, w] = cellWidths(cells[c]!, m);
      if (n > natural[c]!) natural[c] = n;
      if (w > minimum[c]!) minimum[c] = w;
    }
  }
  const widths = columnWidths(natural, minimum, flow.width);
  const xs: number[] = [];
  widths.reduce((x, w) => (xs.push(x), x + w), 0);
  const wrapCells = (cells: Run[][]) => cells.map((runs, c) => wrapRuns(runs, widths[c]! - PAD * 2, m, size));
  const headerLines = wrapCells(header);
  const linesOf = (cells: Line[][]) => Math.max(1, ...cells.map((lines) => lines.length));
  const headerCount = linesOf(headerLines);
  const headerHeight = headerCount * lh + PAD * 2;

  const drawSlice = (cells: Line[][], from: number, count: number, fill: typeof GREY.zebra | null) => {
    const left = flow.x;
    const top = flow.y;
    const height = count * lh + PAD * 2;
    const page = flow.page;
    if (fill) page.fillRect(left, top - height, flow.width, height, fill);
    for (let c = 0; c < cols; c++) {
      const lines = cells[c]!;
      for (let k = 0; k < count && from + k < lines.length; k++) {
        drawLine(page, enc, lines[from + k]!, left + xs[c]! + PAD, top - PAD - k * lh, lh, align[c], widths[c]! - PAD * 2);
      }
    }
    const bottom = top - height;
    const segments: [number, number, number, number][] = [
      [left, top, left + flow.width, top],
      [left, bottom, left + flow.width, bottom],
    ];
    for (let c = 0; c <= cols; c++) {
      const x = c === cols ? left + flow.width : left + xs[c]!;
      segments.push([x, top, x, bottom]);
    }
    page.segments(segments, GREY.rule, 0.6);
    flow.y = bottom;
  };
  const drawHeader = () => drawSlice(headerLines, 0, headerCount, theme.tint);
  const fullRoom = CONTENT_TOP - CONTENT_BOTTOM - headerHeight;

  flow.gap(2);
  const firstRow = rows[0] ? wrapCells(rows[0]) : null;
  // The header starts on the page where the first row (or, when that row is taller than a page, its first lines) fits.
  const firstHeight = firstRow ? linesOf(firstRow) * lh + PAD * 2 : 0;
  flow.ensure(headerHeight + (firstHeight <= fullRoom ? firstHeight : 3 * lh + PAD * 2));
  drawHeader();
  for (const [r, row] of rows.entries()) {
    const cells = r === 0 && firstRow ? firstRow : wrapCells(row);
    const total = linesOf(cells);
    const fill = r % 2 === 1 ? GREY.zebra : null;
    let offset = 0;
    // A page that holds nothing but the header takes at least one line, whatever its height.
    let fresh = false;
    while (offset < total) {
      const rest = total - offset;
      if (rest * lh + PAD * 2 <= flow.room) {
        drawSlice(cells, offset, rest, fill);
        break;
      }
      const fit = Math.max(Math.floor((flow.room - PAD * 2) / lh), fresh ? 1 : 0);
      if (!fresh && ((offset === 0 && rest * lh + PAD * 2 <= fullRoom) || fit < 1)) {
        flow.newPage();
        drawHeader();
        fresh = true;
        continue;
      }
      drawSlice(cells, offset, Math.min(fit, rest), fill);
      offset += fit;
      if (offset < total) {
        flow.newPage();
        drawHeader();
        fresh = true;
      }
    }
  }
  flow.gap(10);
}
