import { deleteFile, downloadContentType, readFile } from "~/domain/files/files.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/files";
import { API_VERSION } from "~/http/api/respond.server";
import { contentDisposition } from "~/http/api/download.server";

const route = apiRoute(
  endpoint(c.downloadFile, async ({ actor, params, request }) => {
    const { file, data, sha256 } = await readFile(actor, params.projectId, params.fileId);
    const etag = `"${sha256}"`;
    const headers = new Headers({
      "API-Version": API_VERSION,
      "Content-Type": downloadContentType(file.contentType),
      "Content-Disposition": contentDisposition(file.filename),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "private, no-cache",
      ETag: etag,
    });
    const inm = request.headers.get("If-None-Match");
    if (inm && inm.split(",").some((t) => t.trim() === etag || t.trim() === "*")) {
      return new Response(null, { status: 304, headers });
    }
    headers.set("Content-Length", String(data.byteLength));
    return new Response(request.method === "HEAD" ? null : new Uint8Array(data), { status: 200, headers });
  }),
  endpoint(c.deleteFile, async ({ actor, params }) => {
    await deleteFile(actor, params.projectId, params.fileId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
