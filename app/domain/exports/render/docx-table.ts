import type { Token, Tokens } from "../markdown-tokens";
import type { Align, Marks } from "./docx-body";

/** Table width in twentieths of a point (A4 text width with 1" margins). */
const TABLE_WIDTH = 9026;

/**
 * A markdown table as a Word table: full width, thin grey borders, the
 * header row shaded in the brand colour with white bold text, repeated on
 * every page and never split; column alignment from the markdown.
 */
export function tableXml(token: Tokens.Table, brand: string, inline: (tokens: Token[], marks: Marks) => string): string {
  const columns = Math.max(1, token.header.length);
  const width = Math.floor(TABLE_WIDTH / columns);
  const border = (side: string) => `<w:${side} w:val="single" w:sz="4" w:space="0" w:color="D1D5DB"/>`;
  const align = (a: string | null): Align => (a === "center" || a === "right" ? a : "left");
  const cell = (c: Tokens.TableCell | undefined, header: boolean) => {
    const shd = header ? `<w:shd w:val="clear" w:color="auto" w:fill="${brand}"/>` : "";
    const runs = c ? inline(c.tokens, header ? { bold: true, color: "FFFFFF" } : {}) : "";
    const jc = c && align(c.align) !== "left" ? `<w:jc w:val="${align(c.align)}"/>` : "";
    return `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/>${shd}</w:tcPr><w:p><w:pPr><w:spacing w:before="40" w:after="40"/>${jc}</w:pPr>${runs}</w:p></w:tc>`;
  };
  const row = (cells: (Tokens.TableCell | undefined)[], header: boolean) =>
    `<w:tr><w:trPr><w:cantSplit/>${header ? "<w:tblHeader/>" : ""}</w:trPr>${Array.from({ length: columns }, (_, i) => cell(cells[i], header)).join("")}</w:tr>`;
  return (
    `<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblBorders>${["top", "left", "bottom", "right", "insideH", "insideV"].map(border).join("")}</w:tblBorders>` +
    `<w:tblLayout w:type="autofit"/><w:tblCellMar><w:left w:w="100" w:type="dxa"/><w:right w:w="100" w:type="dxa"/></w:tblCellMar><w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="0" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/></w:tblPr>` +
    `<w:tblGrid>${`<w:gridCol w:w="${width}"/>`.repeat(columns)}</w:tblGrid>${row(token.header, true)}${token.rows.map((r) => row(r, false)).join("")}</w:tbl>` +
    // Word wants a paragraph between two tables and before the section's end.
    '<w:p><w:pPr><w:spacing w:after="60"/></w:pPr></w:p>'
  );
}
