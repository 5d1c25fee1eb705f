import type { ExportDocument } from "../document";

/** Scaffolding: replaced by the PDF writer. */
export async function renderPdf(_doc: ExportDocument): Promise<Uint8Array> {
  throw new Error("PDF export is not built yet");
}
