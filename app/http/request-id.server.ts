import crypto from "node:crypto";
import type { IncomingMessage } from "node:http";

/**
 * The id of a request. An incoming `X-Request-Id` is kept when it looks sane
 * (a proxy's id ties its logs to ours); otherwise a new random id is made.
 *
 * The id travels with the request itself, not in AsyncLocalStorage: server.ts
 * writes it into the incoming `X-Request-Id` header, so the `Request` every
 * route and domain function sees carries it (`requestIdOf`), and the actor
 * and request metadata built from that Request keep it for log lines.
 * AsyncLocalStorage would cost every promise of every request an async-hook
 * call on Node 20 (measured: about a tenth of an API read's throughput).
 */

const SANE = /^[A-Za-z0-9._-]{1,100}$/;
const HEADER = "x-request-id";

/** The id to use for a request, given its `X-Request-Id` header (if any). */
export function requestIdFrom(header: string | string[] | null | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && SANE.test(value) ? value : crypto.randomUUID();
}

/** Makes `id` the request's only `X-Request-Id` (both header views node keeps), so the Request built from it carries it. */
export function stampRequestId(req: IncomingMessage, id: string) {
  if (req.headers[HEADER] === id) return;
  req.headers[HEADER] = id;
  const raw = req.rawHeaders;
  let kept = false;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length !== HEADER.length || raw[i]!.toLowerCase() !== HEADER) continue;
    if (kept) {
      raw.splice(i, 2);
      i -= 2;
    } else {
      raw[i + 1] = id;
      kept = true;
    }
  }
  if (!kept) raw.push("X-Request-Id", id);
}

/** The id server.ts gave this request, or undefined (a Request made outside server.ts, as in tests). */
export function requestIdOf(request: Request | null | undefined): string | undefined {
  return request?.headers.get(HEADER) ?? undefined;
}
