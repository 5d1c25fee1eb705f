import type { ExportDocument } from "../document";
import { PageCanvas } from "./canvas";
import { textBlock } from "./draw";
import type { GlyphEncoder } from "./encoder.server";
import type { EmbeddedImage } from "./media.server";
import type { Measurer } from "./measure";
import { CONTENT_WIDTH, GREY, PAGE, type Theme } from "./theme";

/** The first page: branding bands, logo, company name, title, subtitle and the generation date. */

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "Generated 1 March 2025, 12:00 UTC" (Intl's first use costs ~30 ms: formatted by hand). */
export function generatedLabel(date: Date) {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `Generated ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

export function titlePage(doc: ExportDocument, theme: Theme, logo: EmbeddedImage | null, m: Measurer, enc: GlyphEncoder) {
  const page = new PageCanvas();
  const x = PAGE.left;
  page.fillRect(0, PAGE.height - 22, PAGE.width, 22, theme.primary);
  page.fillRect(0, PAGE.height - 25, PAGE.width, 3, theme.accent);

  let y = PAGE.height - 84;
  if (logo) {
    const scale = Math.min(170 / logo.width, 64 / logo.height, 1.5);
    const w = logo.width * scale;
    const h = logo.height * scale;
    page.image(logo.name, x, y - h, w, h);
    y -= h + 16;
  }
  if (theme.companyName) {
    y = textBlock(page, enc, m, theme.companyName, { face: "bold", size: 14, color: theme.primaryText }, { x, top: y, width: CONTENT_WIDTH, maxLines: 2 });
  }

  let top = Math.min(y - 60, PAGE.height * 0.6);
  top = textBlock(
    page,
    enc,
    m,
    doc.title || "Untitled PRD",
    { face: "bold", size: 28, color: GREY.text },
    { x, top, width: CONTENT_WIDTH, leading: 1.2, maxLines: 7 },
  );
  top -= 10;
  page.fillRect(x, top - 3, 64, 3, theme.accent);
  top -= 20;
  if (doc.subtitle) {
    top = textBlock(page, enc, m, doc.subtitle, { face: "regular", size: 13, color: GREY.muted }, { x, top, width: CONTENT_WIDTH, maxLines: 4 });
    top -= 8;
  }
  textBlock(page, enc, m, generatedLabel(doc.generatedAt), { face: "regular", size: 10, color: GREY.muted }, { x, top, width: CONTENT_WIDTH });

  page.fillRect(0, 0, PAGE.width, 10, theme.primary);
  return page;
}
