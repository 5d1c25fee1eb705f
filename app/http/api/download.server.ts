import { API_VERSION } from "./respond.server";

/** `attachment` with an RFC 5987 UTF-8 name and a plain ASCII fallback for old clients. */
export function contentDisposition(filename: string) {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A generated file as a download. */
export function downloadResponse(file: { filename: string; contentType: string; body: Buffer }) {
  return new Response(new Uint8Array(file.body), {
    status: 200,
    headers: {
      "API-Version": API_VERSION,
      "Content-Type": file.contentType,
      "Content-Disposition": contentDisposition(file.filename),
      "Content-Length": String(file.body.byteLength),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
