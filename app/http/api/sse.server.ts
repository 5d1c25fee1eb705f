import { ProviderError } from "~/ai/types";
import { AppError } from "~/domain/errors";
import { logger } from "~/utils/log.server";
import { sseStreamClosed, sseStreamOpened } from "../server/metrics.server";
import { requestIdOf } from "../request-id.server";

/**
 * Server-sent events for AI streams. Each event is written as
 * `data: <json>\n\n` and flushed at once; a heartbeat comment goes out every
 * 15 s; when the client disconnects the producer is told to stop (its
 * AbortSignal fires and its iterator is closed).
 */
export type StreamEvent =
  | { type: "progress"; phase: string; percent: number }
  | { type: "content"; content: string }
  | ({ type: "done" } & Record<string, unknown>)
  | { type: "error"; message: string; code: string };

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
  "API-Version": "1",
} as const;

/** What a client may read about a failure: our own errors say what happened; anything else is logged, not shown. */
function streamErrorMessage(error: unknown, requestId: string | undefined) {
  if (error instanceof AppError || error instanceof ProviderError) return error.message;
  logger.error("[sse] stream failed", { requestId, error });
  return "Generation failed on our side; please try again";
}

export function sseResponse(
  request: Request,
  produce: (signal: AbortSignal) => AsyncIterable<StreamEvent>,
  options: { heartbeatMs?: number; headers?: HeadersInit } = {},
) {
  const encoder = new TextEncoder();
  const upstream = new AbortController();
  const onClientGone = () => upstream.abort(new Error("client disconnected"));
  if (request.signal.aborted) onClientGone();
  request.signal.addEventListener("abort", onClientGone, { once: true });
  let heartbeat: NodeJS.Timeout | undefined;
  let iterator: AsyncIterator<StreamEvent> | undefined;
  // The sse_streams_open gauge: up when the stream starts, down once when it ends or the client leaves.
  let open = false;
  const closed = () => {
    if (open) sseStreamClosed();
    open = false;
  };

  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      open = true;
      sseStreamOpened();
      const write = (text: string) => {
        if (upstream.signal.aborted) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          onClientGone();
        }
      };
      heartbeat = setInterval(() => write(": heartbeat\n\n"), options.heartbeatMs ?? 15_000);
      write(": stream open\n\n");
      try {
        iterator = produce(upstream.signal)[Symbol.asyncIterator]();
        for (;;) {
          if (upstream.signal.aborted) break;
          const { value, done } = await iterator.next();
          if (done) break;
          write(`data: ${JSON.stringify(value)}\n\n`);
          if (value.type === "done" || value.type === "error") break;
        }
      } catch (error) {
        if (!upstream.signal.aborted) {
          write(`data: ${JSON.stringify({ type: "error", message: streamErrorMessage(error, requestIdOf(request)), code: "GENERATION_ERROR" })}\n\n`);
        }
      } finally {
        closed();
        clearInterval(heartbeat);
        request.signal.removeEventListener("abort", onClientGone);
        await iterator?.return?.().catch(() => {});
        try {
          controller.close();
        } catch {
          /* already closed by a disconnect */
        }
      }
    },
    cancel() {
      closed();
      clearInterval(heartbeat);
      onClientGone();
    },
  });
  const headers = new Headers(options.headers);
  for (const [k, v] of Object.entries(SSE_HEADERS)) headers.set(k, v);
  return new Response(stream, { status: 200, headers });
}
