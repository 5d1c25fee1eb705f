import { CONTENT_TYPES, type ExportDocument, type ExportFile, type ExportFormat, exportFilename } from "./document";
import { renderDocx } from "./render/docx.server";
import { renderHtml } from "./render/html.server";
import { renderPdf } from "./render/pdf.server";

/** One prepared document as a file of `format`: the single entry point of every exporter (API, bulk, schedules). */
export async function renderExport(doc: ExportDocument, format: ExportFormat): Promise<ExportFile> {
  const filename = exportFilename(doc.title, format);
  const contentType = CONTENT_TYPES[format];
  switch (format) {
    case "pdf":
      return { bytes: await renderPdf(doc), contentType, filename };
    case "docx":
      return { bytes: await renderDocx(doc), contentType, filename };
    case "html":
      return { bytes: Buffer.from(renderHtml(doc), "utf8"), contentType, filename };
    case "markdown":
      return { bytes: Buffer.from(`# ${doc.title}\n\n${doc.markdown}`, "utf8"), contentType, filename };
  }
}
