import { readLogo } from "~/domain/branding/branding.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/branding";
import { API_VERSION } from "~/http/api/respond.server";

const route = apiRoute(
  endpoint(c.getLogo, async ({ params, request }) => {
    const logo = await readLogo(params.orgId, params.hash);
    const etag = `"${logo.sha256}"`;
    const headers = new Headers({
      "API-Version": API_VERSION,
      "Content-Type": "image/png",
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      // Public (share pages, e-mails) and immutable: a new logo gets a new URL.
      "Cache-Control": "public, max-age=31536000, immutable",
      "Cross-Origin-Resource-Policy": "cross-origin",
      ETag: etag,
    });
    const inm = request.headers.get("If-None-Match");
    if (inm && inm.split(",").some((t) => t.trim() === etag || t.trim() === "*")) return new Response(null, { status: 304, headers });
    headers.set("Content-Length", String(logo.data.byteLength));
    return new Response(request.method === "HEAD" ? null : new Uint8Array(logo.data), { status: 200, headers });
  }),
);
export const loader = route.loader;
export const action = route.action;
