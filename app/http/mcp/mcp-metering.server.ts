import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { config } from "~/config.server";
import { AppError } from "~/domain/errors";
import { assertAllowed, type RateResult } from "~/utils/rate-limiter.server";

/**
 * What /mcp adds to the REST API key's rules (docs/mcp.md, "Authentication"):
 * each JSON-RPC message counts as one request, and without APP_URL in
 * production no browser origin is trusted.
 */

/** The JSON-RPC error code of a refusal outside any tool (authentication, rate limit): as the whole-request 401/429. */
export const RPC_REFUSED = -32001;

/**
 * Charges every JSON-RPC message of one POST beyond the first (which
 * `authenticate` charged) against the key's per-minute limit, as if each came
 * in its own POST. A message over the limit is not delivered to the server: a
 * request is answered with the same RATE_LIMITED error a refused POST carries,
 * a notification is dropped. Without this a batch of 100 tool calls cost one
 * request. Call after `server.connect(transport)`, which sets `onmessage`.
 */
export function chargeEachMessage(transport: Transport, charge: () => RateResult, onRate: (rate: RateResult) => void) {
  const deliver = transport.onmessage;
  let seen = 0;
  transport.onmessage = (message, extra) => {
    if (seen++ > 0) {
      const rate = charge();
      onRate(rate);
      if (!rate.allowed) {
        if ("method" in message && "id" in message) {
          const error = { code: RPC_REFUSED, message: `RATE_LIMITED: ${refusal(rate)}` };
          transport.send({ jsonrpc: "2.0", id: message.id, error }).catch(() => {});
        }
        return;
      }
    }
    deliver?.(message, extra);
  };
}

function refusal(rate: RateResult) {
  try {
    assertAllowed(rate, "requests for this API key");
  } catch (error) {
    if (error instanceof AppError) return error.message;
  }
  return "Too many requests for this API key";
}

/**
 * Without APP_URL the same-origin rule has only the request's own Host to
 * compare a browser's Origin with, and a rebound DNS name makes any page "same
 * origin" (docs/security.md). /mcp has no browser callers: in production
 * without APP_URL, a request a browser marks (Origin, or Sec-Fetch-Site other
 * than none) is refused.
 */
export function browserCallWithoutAppUrl(request: Request) {
  const { NODE_ENV, APP_URL } = config();
  if (NODE_ENV !== "production" || APP_URL) return false;
  const site = request.headers.get("sec-fetch-site");
  return request.headers.has("origin") || (site !== null && site !== "none");
}
