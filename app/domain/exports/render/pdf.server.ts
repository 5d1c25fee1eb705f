import type { ExportDocument } from "../document";

/**
 * The PDF export: real text in embedded DejaVu fonts, title page,
 * contents, page numbers, branding; see docs/export-pdf.md. The layout engine
 * (app/domain/exports/pdf/) and pdf-lib load on the first export, not at start-up.
 */
export async function renderPdf(doc: ExportDocument): Promise<Uint8Array> {
  const { buildPdf } = await import("../pdf/document.server");
  return buildPdf(doc);
}
