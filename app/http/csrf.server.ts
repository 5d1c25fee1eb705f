import { config } from "~/config.server";
import { AppError } from "~/domain/errors";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The one same-origin rule. A state-changing request is cross-site when the
 * browser says so (`Sec-Fetch-Site` other than same-origin/none) or when its
 * `Origin` is neither APP_URL's origin nor the request's own (`own`).
 * Browsers send one or both on such requests; a request carrying neither is
 * not from a browser and cannot be a forgery.
 */
function crossSite(method: string, header: (name: string) => string | null | undefined, own: (origin: URL) => boolean) {
  if (SAFE.has(method.toUpperCase())) return false;
  const site = header("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = header("origin");
  if (!origin) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return true;
  }
  const appUrl = config().APP_URL;
  if (appUrl && new URL(appUrl).origin === url.origin) return false;
  return !own(url);
}

/** Cookie-authenticated requests that change state must come from our own origin (403 CSRF_FAILED). */
export function assertSameOrigin(request: Request) {
  if (
    crossSite(
      request.method,
      (name) => request.headers.get(name),
      (origin) => origin.origin === new URL(request.url).origin,
    )
  ) {
    throw new AppError("CSRF_FAILED", 403, "Cross-site request refused: send it from the app's own origin");
  }
}

/**
 * The same rule for a raw node request, which Remix would refuse with a 500
 * and a stack ("host header does not match origin"): server.ts answers a
 * page form posted from another site 403 before Remix sees it.
 */
export function isCrossSiteNodeRequest(method: string, headers: Record<string, string | string[] | undefined>) {
  const one = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  return crossSite(method, one, (origin) => origin.host === (one("x-forwarded-host") ?? one("host")));
}
