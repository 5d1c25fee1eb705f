import type { PDFFont, PDFPage } from "pdf-lib";

/**
 * A plain text document as PDF (A4, Helvetica, wrapped lines, page breaks),
 * for downloads such as the conversation export. pdf-lib's standard fonts
 * only encode WinAnsi, so other characters are transliterated or replaced.
 */

export type PdfBlock = { kind: "title" | "heading" | "paragraph" | "meta"; text: string };

const PAGE = { width: 595.28, height: 841.89, margin: 56 };
const STYLE = {
  title: { size: 20, gap: 14, bold: true, color: [0.1, 0.1, 0.15] },
  heading: { size: 12.5, gap: 6, bold: true, color: [0.12, 0.2, 0.45] },
  paragraph: { size: 10.5, gap: 10, bold: false, color: [0.1, 0.1, 0.1] },
  meta: { size: 9, gap: 12, bold: false, color: [0.4, 0.4, 0.45] },
} as const;

const REPLACEMENTS: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u2013": "-",
  "\u2014": "-",
  "\u2026": "...",
  "\u2022": "-",
  "\u00A0": " ",
};

/** Text the standard fonts can draw: typographic marks mapped, accents stripped, the rest as "?". */
export function pdfSafe(text: string) {
  return text
    .replace(/[\u2018\u2019\u201C\u201D\u2013\u2014\u2026\u2022\u00A0]/g, (c) => REPLACEMENTS[c]!)
    .replace(/\t/g, "    ")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7E\n]/g, "?");
}

function wrap(text: string, font: PDFFont, size: number, width: number) {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/ +/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = word;
      // A single word wider than the line is cut into pieces.
      while (font.widthOfTextAtSize(line, size) > width) {
        let cut = line.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    lines.push(line);
  }
  return lines;
}

export async function textPdf(title: string, blocks: PdfBlock[]) {
  // Loaded on first use: pdf-lib is large and most processes never write a PDF.
  const { PDFDocument, rgb, StandardFonts } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  doc.setTitle(pdfSafe(title));
  doc.setProducer("PRD Studio");
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const width = PAGE.width - PAGE.margin * 2;
  let page: PDFPage = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  for (const block of [{ kind: "title" as const, text: title }, ...blocks]) {
    const style = STYLE[block.kind];
    const font = style.bold ? bold : regular;
    const leading = style.size * 1.35;
    for (const line of wrap(pdfSafe(block.text), font, style.size, width)) {
      if (y - leading < PAGE.margin) {
        page = doc.addPage([PAGE.width, PAGE.height]);
        y = PAGE.height - PAGE.margin;
      }
      y -= leading;
      page.drawText(line, { x: PAGE.margin, y, size: style.size, font, color: rgb(style.color[0], style.color[1], style.color[2]) });
    }
    y -= style.gap;
  }
  return Buffer.from(await doc.save());
}
