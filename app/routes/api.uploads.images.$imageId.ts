import { readImage } from "~/domain/uploads/images.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/uploads";
import { API_VERSION } from "~/http/api/respond.server";

const route = apiRoute(
  endpoint(c.getImage, async ({ viewer, params, request }) => {
    const image = await readImage(viewer, params.imageId);
    const etag = `"${image.sha256}"`;
    const headers = new Headers({
      "API-Version": API_VERSION,
      "Content-Type": image.contentType,
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      // Private: only people who can read the project may see it; immutable: the bytes never change under this id.
      "Cache-Control": "private, max-age=31536000, immutable",
      ETag: etag,
    });
    const inm = request.headers.get("If-None-Match");
    if (inm && inm.split(",").some((t) => t.trim() === etag || t.trim() === "*")) {
      return new Response(null, { status: 304, headers });
    }
    headers.set("Content-Length", String(image.data.byteLength));
    return new Response(request.method === "HEAD" ? null : new Uint8Array(image.data), { status: 200, headers });
  }),
);
export const loader = route.loader;
export const action = route.action;
