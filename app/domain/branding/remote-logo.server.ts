import { logger } from "~/utils/log.server";
import type { ExportImage } from "../exports/document";
import { literalHostProblem } from "../webhooks/address.server";
import { guardedRequest } from "../webhooks/outbound.server";
import { MAX_LOGO_BYTES } from "./branding.schema";
import { reencodeLogo } from "./logo.server";

/**
 * A logo given as a URL (POST /api/organization/branding `{logo: "https://…"}`)
 * is stored as that URL and fetched only when an export embeds it: through
 * the guarded outbound request of webhooks (private, loopback and reserved
 * targets refused unless ALLOW_PRIVATE_WEBHOOK_TARGETS=true, names checked
 * after resolution), 5 s, at most 2 MB, an image type, up to 3 redirects
 * each checked again; then sniffed and re-encoded like an uploaded logo
 * (PNG, 512 px a side, SVG refused). Any failure: no logo, the export goes
 * on. Results are kept 10 minutes (failures 1 minute) so a bulk export or a
 * digest fetches once.
 */

export const MAX_LOGO_URL_LENGTH = 2048;
const TIMEOUT_MS = 5_000;
const MAX_REDIRECTS = 3;
const KEEP_MS = 10 * 60_000;
const KEEP_FAILURE_MS = 60_000;

/** An absolute http(s) URL (as opposed to our own /api/branding/logo/… path or base64). */
export const isRemoteLogoUrl = (value: string | null | undefined): value is string => !!value && /^https?:\/\//i.test(value.trim());

/** Why a logo URL cannot be stored (save-time checks), or null. */
export function logoUrlProblem(value: string): string | null {
  if (value.length > MAX_LOGO_URL_LENGTH) return `The logo URL is longer than ${MAX_LOGO_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "The logo must be an http:// or https:// URL, a base64 image, or null";
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) return "The logo must be an http:// or https:// URL, a base64 image, or null";
  if (url.username || url.password) return "The logo URL must not carry a user name or password";
  if (literalHostProblem(url)) return "The logo URL cannot point to localhost or a private, loopback or reserved address";
  return null;
}

const cache = new Map<string, { until: number; image: ExportImage | null }>();

async function download(url: string): Promise<Buffer> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await guardedRequest(current, {
      method: "GET",
      headers: { Accept: "image/png,image/jpeg,image/webp,image/gif,image/avif;q=0.9", "User-Agent": "PRD-Studio-Branding/1" },
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_LOGO_BYTES,
    });
    if (res.error !== null) throw new Error(res.error);
    const status = res.status ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location) {
      if (hop >= MAX_REDIRECTS) throw new Error(`More than ${MAX_REDIRECTS} redirects`);
      current = new URL(location, current).toString();
      continue;
    }
    if (status !== 200) throw new Error(`HTTP ${status}`);
    const type = String(res.headers["content-type"] ?? "")
      .split(";")[0]!
      .trim()
      .toLowerCase();
    if (type && !type.startsWith("image/") && type !== "application/octet-stream") throw new Error(`Not an image (${type})`);
    return res.body;
  }
}

/** The logo at `url` as an image exports embed, or null (refused, unreachable, too large, not a raster image). */
export async function fetchRemoteLogo(url: string, now = Date.now()): Promise<ExportImage | null> {
  const hit = cache.get(url);
  if (hit && hit.until > now) return hit.image;
  let image: ExportImage | null = null;
  try {
    const logo = await reencodeLogo(await download(url));
    image = { data: logo.data, contentType: "image/png", width: logo.width, height: logo.height };
  } catch (error) {
    logger.warn("[branding] the logo URL could not be used; exporting without a logo", { url, error: error instanceof Error ? error.message : String(error) });
  }
  if (cache.size > 200) cache.clear();
  cache.set(url, { until: now + (image ? KEEP_MS : KEEP_FAILURE_MS), image });
  return image;
}

/** Forgets fetched logos (a new URL is stored, or tests). */
export function forgetRemoteLogos() {
  cache.clear();
}
