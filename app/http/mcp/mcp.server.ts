import type { AppLoadContext } from "@remix-run/node";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Actor } from "~/domain/actor";
import { AppError, unauthorized } from "~/domain/errors";
import { replayToPrimary, mustReplay } from "~/ops/replay.server";
import { assertSameOrigin } from "../csrf.server";
import { asStorageError } from "~/ops/storage-errors.server";
import { logger } from "~/utils/log.server";
import { authenticate } from "../api/authenticate.server";
import { requestIdOf } from "../request-id.server";
import { withBaselineHeaders } from "../server/security-headers.server";
import { rateHeaders, type RateResult } from "~/utils/rate-limiter.server";
import { browserCallWithoutAppUrl, chargeEachMessage, RPC_REFUSED } from "./mcp-metering.server";
import { createMcpServer } from "./mcp-tools.server";

/**
 * The /mcp endpoint (docs/mcp.md): streamable HTTP, stateless (a new server
 * and transport per POST), JSON answers, authenticated with a REST API key
 * exactly as /api is (the same `authenticate`), each JSON-RPC message of a
 * batch counted against the key's limit (mcp-metering.server.ts). The tools
 * are in mcp-tools.server.ts.
 */

export const MCP_PATH = "/mcp";

/** A JSON-RPC error answer outside any MCP exchange (auth, method). */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}) {
  return withBaselineHeaders(
    Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers: { "Cache-Control": "no-store", ...headers } }),
  );
}

const BEARER = 'Bearer realm="mcp", error="invalid_token"';

/** The whole /mcp endpoint: replay, authenticate, then one stateless MCP exchange. */
export async function handleMcp(request: Request, context?: AppLoadContext): Promise<Response> {
  // All MCP calls are POSTs; on a LiteFS replica they are replayed on the primary, as /api writes are.
  if (mustReplay(request)) return replayToPrimary();
  const requestId = requestIdOf(request);
  // A web page on another site trying to reach the server from a browser (DNS rebinding, a forged post): refused.
  try {
    assertSameOrigin(request);
  } catch {
    return rpcError(403, -32000, "Cross-site request refused: MCP clients send no browser Origin");
  }
  if (browserCallWithoutAppUrl(request)) {
    return rpcError(403, -32000, "Cross-site request refused: MCP clients send no browser Origin, and without APP_URL no browser origin is trusted");
  }
  if (!/^Bearer\s/i.test(request.headers.get("Authorization") ?? "")) {
    return rpcError(401, RPC_REFUSED, "Send a REST API key: Authorization: Bearer svc_...", { "WWW-Authenticate": 'Bearer realm="mcp"' });
  }
  let actor: Actor;
  let rate: Record<string, string>;
  let charge: () => RateResult;
  try {
    const auth = await authenticate(request, context);
    if (!auth.actor || auth.actor.via !== "apiKey" || !auth.charge) throw unauthorized();
    actor = auth.actor;
    rate = auth.headers;
    charge = auth.charge;
  } catch (error) {
    const err = asStorageError(error, requestId);
    if (err instanceof AppError) {
      const headers: Record<string, string> = { ...err.headers };
      if (err.status === 401) headers["WWW-Authenticate"] = BEARER;
      return rpcError(err.status, RPC_REFUSED, `${err.code}: ${err.message}`, headers);
    }
    logger.error("[mcp] authentication failed", { requestId, error });
    return rpcError(500, -32603, "Something went wrong on our side");
  }
  if (request.method !== "POST") {
    // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
    return rpcError(405, -32000, "Method not allowed: this MCP server is stateless, send POST", { Allow: "POST", ...rate });
  }
  const server = createMcpServer(actor, requestId);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    // A JSON-RPC batch: each message beyond the first is one more request for the key's limit.
    chargeEachMessage(transport, charge, (last) => {
      rate = rateHeaders(last);
    });
    const response = await transport.handleRequest(request);
    for (const [k, v] of Object.entries(rate)) response.headers.set(k, v);
    response.headers.set("Cache-Control", "no-store");
    return withBaselineHeaders(response);
  } finally {
    await server.close().catch(() => {});
  }
}
