import { config } from "~/config.server";
import { AppError } from "~/domain/errors";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cookie-authenticated requests that change state must come from our own
 * origin. Browsers send `Sec-Fetch-Site` and/or `Origin` on such requests; a
 * request carrying neither is not from a browser and cannot be a forgery.
 */
export function assertSameOrigin(request: Request) {
  if (SAFE.has(request.method)) return;
  const site = request.headers.get("Sec-Fetch-Site");
  const origin = request.headers.get("Origin");
  const fail = () => {
    throw new AppError("CSRF_FAILED", 403, "Cross-site request refused: send it from the app's own origin");
  };
  if (site && site !== "same-origin" && site !== "none") fail();
  if (origin) {
    const allowed = new Set([new URL(request.url).origin]);
    const appUrl = config().APP_URL;
    if (appUrl) allowed.add(new URL(appUrl).origin);
    if (!allowed.has(origin)) fail();
  }
}

/**
 * The same rule for a raw node request that Remix would refuse with a 500
 * and a stack ("host header does not match origin"): a state-changing page
 * request from another site. server.ts answers it 403 before Remix sees it.
 */
export function isCrossSiteNodeRequest(method: string, headers: Record<string, string | string[] | undefined>) {
  if (SAFE.has(method)) return false;
  const one = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const site = one("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = one("origin");
  if (!origin) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const appUrl = config().APP_URL;
  if (appUrl && new URL(appUrl).host === originHost) return false;
  const host = one("x-forwarded-host") ?? one("host");
  return originHost !== host;
}
