import http from "node:http";
import https from "node:https";
import net from "node:net";
import { guardedLookup, isBlockedAddress, privateTargetsAllowed, TargetRefusedError } from "./address.server";

/**
 * The one guarded outbound HTTP request of the app: webhook deliveries
 * (delivery.server `post`, scheduled exports) and remote branding logos go
 * through it. Private, loopback and reserved targets are refused unless
 * ALLOW_PRIVATE_WEBHOOK_TARGETS=true: literal IPs before connecting, names
 * by guardedLookup (every address checked, the checked one connected to).
 * Redirects are not followed. The body is read up to `maxBytes` (past it the
 * request is aborted); only the first `keepBytes` are kept.
 */

export interface OutboundResponse {
  /** HTTP status, or null when there was none (refused, timed out, network error). */
  status: number | null;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Null when an HTTP answer arrived whole (any status); else why not. Refusals start with "Refused:". */
  error: string | null;
  durationMs: number;
}

export interface OutboundRequest {
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Abort when the response body grows past this (default: no limit). */
  maxBytes?: number;
  /** Bytes of the body kept for the caller (default: all that is read). */
  keepBytes?: number;
}

class TooLarge extends Error {}

/** Never throws: failures come back in `error`. */
export function guardedRequest(url: string, o: OutboundRequest): Promise<OutboundResponse> {
  const started = performance.now();
  const done = (status: number | null, error: string | null, headers: http.IncomingHttpHeaders = {}, body = Buffer.alloc(0)): OutboundResponse => ({
    status,
    headers,
    body,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done(null, "Refused: not a valid URL"));
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return Promise.resolve(done(null, "Refused: only http and https URLs"));
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host) && !privateTargetsAllowed() && isBlockedAddress(host)) {
    return Promise.resolve(done(null, `Refused: ${host} is a private or reserved address`));
  }
  const client = target.protocol === "https:" ? https : http;
  const maxBytes = o.maxBytes ?? Number.POSITIVE_INFINITY;
  const keepBytes = o.keepBytes ?? maxBytes;
  return new Promise<OutboundResponse>((resolve) => {
    const req = client.request(
      target,
      {
        method: o.method,
        headers: { ...o.headers, ...(o.body !== undefined ? { "Content-Length": String(Buffer.byteLength(o.body)) } : {}) },
        lookup: guardedLookup,
        signal: AbortSignal.timeout(o.timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let kept = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return req.destroy(new TooLarge(`The response is larger than ${maxBytes} bytes`));
          if (kept < keepBytes) {
            chunks.push(chunk);
            kept += chunk.length;
          }
        });
        res.on("end", () => resolve(done(res.statusCode ?? 0, null, res.headers, Buffer.concat(chunks).subarray(0, keepBytes))));
        res.on("error", (error) => resolve(done(res.statusCode ?? null, error.message, res.headers)));
      },
    );
    req.on("error", (error: Error) => {
      const refused = error instanceof TargetRefusedError || error.cause instanceof TargetRefusedError;
      const message =
        error.name === "TimeoutError" || error.name === "AbortError"
          ? `Timed out after ${o.timeoutMs / 1000} s`
          : refused
            ? `Refused: ${error.message}`
            : error.message;
      resolve(done(null, message));
    });
    req.end(o.body);
  });
}
