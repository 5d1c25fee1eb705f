import type { Ctx } from "./draw";
import { baselineOf } from "./draw";
import { CODE_LEADING, CODE_SIZE, CONTENT_BOTTOM, CONTENT_TOP, GREY, type Rgb } from "./theme";
import { hardWrap } from "./wrap";

/** Blocks drawn as boxes: code, diagram fallbacks, images and diagrams, quote bars. */

const PAD = 6;

export interface CodeBoxOptions {
  /** Bold line above the text, inside the box (diagram fallback). */
  label?: string;
  background?: Rgb;
  border?: Rgb;
}

/** Monospaced text on a background, cut into one box per page when it is long. */
export function codeBox(ctx: Ctx, text: string, options: CodeBoxOptions = {}) {
  const { flow, m, enc } = ctx;
  const size = CODE_SIZE;
  const lh = size * CODE_LEADING;
  const lines = hardWrap(m.clean(text.replace(/\n+$/, ""), "mono"), "mono", size, flow.width - PAD * 2, m);
  const label = options.label ? m.clean(options.label, "bold") : null;
  const labelHeight = label ? size * 1.6 : 0;
  let i = 0;
  let first = true;
  while (i < lines.length) {
    const head = first ? labelHeight : 0;
    flow.ensure(PAD * 2 + head + lh * Math.min(2, lines.length - i));
    const fit = Math.max(1, Math.floor((flow.room - PAD * 2 - head) / lh));
    const count = Math.min(fit, lines.length - i);
    const boxHeight = PAD * 2 + head + count * lh;
    const top = flow.y;
    flow.page.fillRect(flow.x, top - boxHeight, flow.width, boxHeight, options.background ?? GREY.codeBg);
    if (options.border) flow.page.strokeRect(flow.x, top - boxHeight, flow.width, boxHeight, options.border, 0.8);
    const shows: [number, number, Rgb, string][] = [];
    if (head && label) shows.push([flow.x + PAD, baselineOf(top - PAD, labelHeight, size), GREY.text, enc.show(label, "bold", size)]);
    for (let k = 0; k < count; k++) {
      const line = lines[i + k]!;
      if (line) shows.push([flow.x + PAD, baselineOf(top - PAD - head - k * lh, lh, size), GREY.text, enc.show(line, "mono", size)]);
    }
    flow.page.text(shows);
    flow.y = top - boxHeight;
    i += count;
    first = false;
    if (i < lines.length) flow.newPage();
  }
  flow.gap(8);
}

/** A picture scaled to the column (and to most of a page), centred. */
export function picture(ctx: Ctx, image: { name: string; width: number; height: number }) {
  const { flow } = ctx;
  let { width, height } = image;
  if (width > flow.width) {
    height *= flow.width / width;
    width = flow.width;
  }
  const maxHeight = (CONTENT_TOP - CONTENT_BOTTOM) * 0.8;
  if (height > maxHeight) {
    width *= maxHeight / height;
    height = maxHeight;
  }
  flow.gap(2);
  flow.ensure(height);
  flow.page.image(image.name, flow.x + (flow.width - width) / 2, flow.y - height, width, height);
  flow.y -= height;
  flow.gap(8);
}

/** A vertical bar beside content that may span pages (block quotes). */
export function sideBar(ctx: Ctx, x: number, from: { page: number; y: number }, to: { page: number; y: number }, color: Rgb) {
  for (let p = from.page; p <= to.page; p++) {
    const top = p === from.page ? from.y : CONTENT_TOP;
    const bottom = p === to.page ? to.y : CONTENT_BOTTOM;
    if (top - bottom > 1) ctx.flow.pages[p]!.fillRect(x, bottom, 2.5, top - bottom, color);
  }
}
