import { num } from "./encoder.server";
import { CONTENT_BOTTOM, CONTENT_TOP, CONTENT_WIDTH, PAGE, type Rgb } from "./theme";

/**
 * One page as a list of content-stream operators (written as text, turned
 * into a single compressed stream when the PDF is assembled) plus its link
 * areas. Flow is the cursor that fills pages top to bottom.
 */

export interface LinkArea {
  rect: [number, number, number, number];
  /** External target (http, https, mailto). */
  url?: string;
  /** Internal target: index into the document's heading marks (contents). */
  heading?: number;
  /** Internal target: a heading's anchor id ([text](#anchor)). */
  anchor?: string;
}

const rgb = (c: Rgb) => `${num(c[0])} ${num(c[1])} ${num(c[2])}`;

export class PageCanvas {
  readonly ops: string[] = [];
  readonly links: LinkArea[] = [];

  fillRect(x: number, y: number, w: number, h: number, color: Rgb) {
    this.ops.push(`${rgb(color)} rg ${num(x)} ${num(y)} ${num(w)} ${num(h)} re f`);
  }

  strokeRect(x: number, y: number, w: number, h: number, color: Rgb, width = 0.5) {
    this.ops.push(`${rgb(color)} RG ${num(width)} w ${num(x)} ${num(y)} ${num(w)} ${num(h)} re S`);
  }

  line(x1: number, y1: number, x2: number, y2: number, color: Rgb, width = 0.5, dash?: string) {
    const dashOps = dash ? `q [${dash}] 0 d 1 J ` : "";
    this.ops.push(`${dashOps}${rgb(color)} RG ${num(width)} w ${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l S${dash ? " Q" : ""}`);
  }

  /** Several straight segments stroked as one path. */
  segments(list: [number, number, number, number][], color: Rgb, width = 0.5) {
    if (list.length === 0) return;
    let path = `${rgb(color)} RG ${num(width)} w`;
    for (const [x1, y1, x2, y2] of list) path += ` ${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l`;
    this.ops.push(`${path} S`);
  }

  image(name: string, x: number, y: number, w: number, h: number) {
    this.ops.push(`q ${num(w)} 0 0 ${num(h)} ${num(x)} ${num(y)} cm /${name} Do Q`);
  }

  /** A text object: `shows` are [x, baseline, colour, operators from GlyphEncoder.show]. */
  text(shows: [number, number, Rgb, string][]) {
    if (shows.length === 0) return;
    let out = "BT ";
    for (const [x, y, color, show] of shows) out += `${rgb(color)} rg 1 0 0 1 ${num(x)} ${num(y)} Tm ${show}`;
    this.ops.push(`${out}ET`);
  }

  link(area: LinkArea) {
    this.links.push(area);
  }
}

export class Flow {
  readonly pages: PageCanvas[] = [];
  page!: PageCanvas;
  y: number = CONTENT_TOP;
  x: number = PAGE.left;
  width: number = CONTENT_WIDTH;

  constructor() {
    this.newPage();
  }

  get pageIndex() {
    return this.pages.length - 1;
  }

  get atTop() {
    return this.y >= CONTENT_TOP - 0.01;
  }

  /** Space left on this page. */
  get room() {
    return this.y - CONTENT_BOTTOM;
  }

  newPage() {
    this.page = new PageCanvas();
    this.pages.push(this.page);
    this.y = CONTENT_TOP;
  }

  /** Starts a new page unless `height` fits here (or this page is still empty). */
  ensure(height: number) {
    if (this.y - height < CONTENT_BOTTOM && !this.atTop) this.newPage();
  }

  /** Vertical gap between blocks; none at the top of a page. */
  gap(height: number) {
    if (!this.atTop) this.y = Math.max(this.y - height, CONTENT_BOTTOM);
  }

  /** Lays out `fn` in a narrower column, `left` points in from the current one. */
  indented<T>(left: number, right: number, fn: () => T): T {
    const { x, width } = this;
    this.x = x + left;
    this.width = Math.max(width - left - right, 40);
    try {
      return fn();
    } finally {
      this.x = x;
      this.width = width;
    }
  }
}
