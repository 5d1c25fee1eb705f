import type { BulkExport } from "~/domain/exports/bulk.server";
import type { ExportFile } from "~/domain/exports/document";
import { contentDisposition, downloadResponse } from "./api/download.server";
import { API_VERSION } from "./api/respond.server";

/** Export results as HTTP downloads (API and UI routes alike). */

/** One rendered PRD as an attachment. */
export function exportFileResponse(file: ExportFile) {
  return downloadResponse({
    filename: file.filename,
    contentType: file.contentType,
    body: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
  });
}

/** A bulk export: the zip streamed as it is built (no Content-Length; chunked). */
export function zipStreamResponse(bulk: BulkExport) {
  return new Response(bulk.stream, {
    status: 200,
    headers: {
      "API-Version": API_VERSION,
      "Content-Type": "application/zip",
      "Content-Disposition": contentDisposition(bulk.filename),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
      "X-Accel-Buffering": "no",
      "X-Export-Projects": String(bulk.projectCount),
    },
  });
}
