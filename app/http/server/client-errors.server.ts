import type { Server, ServerResponse } from "node:http";
import { maxHeaderSize } from "node:http";
import type { Duplex } from "node:stream";
import { formatBytes } from "~/utils/format";
import { baselineHeaders } from "./security-headers.server";
import { LINGER_MS, sealResponse } from "./body-guard.server";
import { type Refusal, envelope, rawResponse } from "./refusals.server";

/**
 * Node answers some requests itself, before any handler sees them: headers
 * over its limit (431), a request that took longer than `requestTimeout` or
 * `headersTimeout` (408), bytes that are not HTTP (400). By default it writes
 * a bare status line; here (server.ts, tests/support/serve.ts) the answer is
 * the contract's `{error, code}` envelope with the baseline security headers,
 * and `Connection: close`. Errors of a connection already gone (a reset, a
 * broken pipe) only close the socket; nothing is logged (they are the
 * client's).
 */

type ClientError = Error & { code?: string };

function refusalOf(error: ClientError, headerLimit: number): Refusal | null {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        code: "HEADERS_TOO_LARGE",
        title: "Request refused",
        message: `The request's headers are larger than ${formatBytes(headerLimit)}`,
        hint: "Clear this site's cookies and try again.",
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, code: "REQUEST_TIMEOUT", title: "Request timed out", message: "The request took too long to arrive", hint: "Try again." };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { status: 413, code: "PAYLOAD_TOO_LARGE", title: "Request refused", message: "The request's chunk extensions are too large", hint: "" };
    case "ECONNRESET":
    case "EPIPE":
    case "ERR_STREAM_DESTROYED":
      return null;
    default:
      return { status: 400, code: "BAD_REQUEST", title: "Request refused", message: "The request is not valid HTTP", hint: "" };
  }
}

/** Answers node's own refusals (the 'clientError' event) with the envelope. */
export function answerClientErrors(server: Server) {
  const answered = new WeakSet<Duplex>();
  server.on("clientError", (error: ClientError, socket: Duplex) => {
    // The parser reports the same error again for each chunk that still arrives: one answer per connection.
    if (answered.has(socket)) return;
    answered.add(socket);
    const refusal = refusalOf(error, (server as Server & { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize);
    // A response of this connection already under way: another head in the middle of it would corrupt it.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!refusal || !socket.writable || inFlight?.headersSent) return void socket.destroy();
    // Whatever its handler still writes goes nowhere: this answer ends the connection.
    if (inFlight) sealResponse(inFlight);
    const headers: [string, string][] = [["Content-Type", "application/json; charset=utf-8"], ["Cache-Control", "no-store"], ...baselineHeaders()];
    // end(): the answer, then FIN. The socket is closed a moment later, not at once: closing with the rest
    // of the request unread makes the kernel send a reset, which can destroy the answer on its way.
    socket.end(rawResponse(refusal.status, headers, envelope(refusal)));
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  });
}
