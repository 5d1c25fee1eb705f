import { CONTENT_TYPES, type ExportDocument, type ExportFile, type ExportFormat, exportFilename } from "./document";
import { renderInWorker } from "./render-pool.server";

/**
 * One prepared document as a file of `format`: the single entry point of
 * every exporter (API, bulk, schedules). PDF, DOCX and HTML are rendered in
 * a worker thread (render-pool.server.ts); markdown is the text itself.
 */
export async function renderExport(doc: ExportDocument, format: ExportFormat): Promise<ExportFile> {
  const filename = exportFilename(doc.title, format);
  const contentType = CONTENT_TYPES[format];
  if (format === "markdown") return { bytes: Buffer.from(`# ${doc.title}\n\n${doc.markdown}`, "utf8"), contentType, filename };
  return { bytes: await renderInWorker(format, doc), contentType, filename };
}
