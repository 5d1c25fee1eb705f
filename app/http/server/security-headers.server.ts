import crypto from "node:crypto";
import { type Config, config } from "~/config.server";
import { INTEGRATION_PROVIDERS } from "~/domain/integrations/providers";
import { providerSettings } from "~/domain/integrations/settings.server";
import { trackerConsentOrigins } from "~/domain/trackers/oauth-clients.server";

/**
 * The security headers of every response (docs/security.md, "HTTP headers").
 *
 * Every response — pages, their `.data` requests, the API (JSON, errors,
 * SSE, files), /metrics, static files — carries `baselineHeaders()`:
 * `X-Content-Type-Options: nosniff`, `Referrer-Policy` and, when APP_URL is
 * https, `Strict-Transport-Security`. Three places add them, each only where
 * the response does not have them yet:
 *  - app/http/server/serve.server.ts, for everything server.ts answers (the backstop:
 *    resource routes, redirects, /metrics, static assets);
 *  - app/http/api/api-router.server.ts, for every /api answer of the route table;
 *  - app/entry.server.tsx, for pages and their data requests.
 *
 * HTML documents also get `documentHeaders(nonce)`: a Content-Security-Policy
 * whose script-src allows only same-origin files and inline scripts that
 * carry this request's nonce, plus X-Frame-Options and
 * Cross-Origin-Opener-Policy.
 */

export const HSTS = "max-age=31536000; includeSubDomains";

/** A fresh CSP nonce: 128 random bits, base64. One per document request. */
export function createNonce() {
  return crypto.randomBytes(16).toString("base64");
}

/** Origins a form post may end up at besides our own: redirects to a payment page or an OAuth consent screen. */
function externalFormTargets(c: Config): string[] {
  const origins = new Set<string>();
  const add = (url: string | undefined) => {
    if (!url) return;
    try {
      origins.add(new URL(url).origin);
    } catch {
      /* not a URL: nothing to allow */
    }
  };
  // A checkout or portal link is built from APP_URL, which may differ from the host the page was opened on.
  add(c.APP_URL);
  if (c.BILLING_PROVIDER === "stripe") {
    origins.add("https://checkout.stripe.com");
    origins.add("https://billing.stripe.com");
  }
  for (const provider of INTEGRATION_PROVIDERS) add(providerSettings(provider)?.authUrl);
  // "Connect with GitHub/Linear/Jira" on Settings → Issue trackers posts, then redirects to the service's consent page.
  for (const origin of trackerConsentOrigins()) origins.add(origin);
  return [...origins];
}

interface Computed {
  of: Config;
  baseline: [string, string][];
  /** The policy around script-src: [before, after]. */
  csp: [string, string];
}
let computed: Computed | undefined;

/** Recomputed when the configuration is (tests re-read it after changing the environment). */
function current(): Computed {
  const c = config();
  if (computed?.of === c) return computed;
  const baseline: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ];
  if (c.APP_URL?.startsWith("https://")) baseline.push(["Strict-Transport-Security", HSTS]);
  const after = [
    // Style attributes (React's style={…} renders them on the server) and the <style> inside Mermaid's
    // SVGs cannot carry a nonce; a nonce in style-src would disable 'unsafe-inline'.
    "style-src 'self' 'unsafe-inline'",
    // PRD markdown may show images from anywhere (the sanitizer allows http, https and data:); blob: for previews.
    "img-src 'self' data: blob: https: http:",
    // fetch(), single-fetch .data requests, the AI streams (SSE over fetch): our own origin only.
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${["'self'", ...externalFormTargets(c)].join(" ")}`,
    "frame-ancestors 'none'",
  ];
  computed = { of: c, baseline, csp: ["default-src 'self'", after.join("; ")] };
  return computed;
}

/** The headers every response carries. */
export function baselineHeaders(): readonly [string, string][] {
  return current().baseline;
}

/**
 * The Content-Security-Policy of an HTML document. Scripts: same-origin files
 * and inline scripts with `nonce` only — no 'unsafe-inline', no 'unsafe-eval'.
 * Not 'strict-dynamic': Remix's <link rel="modulepreload"> tags carry no nonce.
 */
export function contentSecurityPolicy(nonce: string) {
  const [before, after] = current().csp;
  return `${before}; script-src 'self' 'nonce-${nonce}'; ${after}`;
}

/** Adds what `headers` lacks of the baseline. */
export function addBaselineHeaders(headers: Headers) {
  for (const [name, value] of current().baseline) if (!headers.has(name)) headers.set(name, value);
}

/**
 * The headers of an HTML page: the baseline, the policy (left out when
 * `nonce` is null: the Vite dev server, whose HMR client injects inline
 * styles and scripts and opens a websocket), no framing by other sites, and
 * a browsing context group of our own.
 */
export function addDocumentHeaders(headers: Headers, nonce: string | null) {
  addBaselineHeaders(headers);
  if (nonce !== null) headers.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
}

/** `response` with the baseline headers; a copy when its headers cannot change (Response.redirect(), fetch() answers). */
export function withBaselineHeaders(response: Response): Response {
  try {
    addBaselineHeaders(response.headers);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    addBaselineHeaders(headers);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
