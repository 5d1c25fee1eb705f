import { ProviderError } from "~/ai/types";
import { AppError } from "~/domain/errors";
import { logger } from "~/utils/log.server";
import { sseStreamClosed, sseStreamOpened } from "../server/metrics.server";
import { requestIdOf } from "../request-id.server";

/**
 * Server-sent events: the AI streams (`StreamEvent`) and the live PRD
 * (app/domain/live/live.schema.ts `LiveEvent`). Each event is written as
 * `data: <json>\n\n` and flushed at once; a heartbeat comment goes out every
 * 15 s; when the client disconnects the producer is told to stop (its
 * AbortSignal fires and its iterator is closed). The producer is asked for
 * its next event only while the stream's queue has room (the node adapter
 * writes to the socket with backpressure), so a slow client holds back the
 * producer instead of filling the server's memory.
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

/** Chunks the stream queues for a reader that has not caught up before it stops asking the producer. */
const QUEUED_CHUNKS = 16;

export function sseResponse<E extends { type: string } = StreamEvent>(
  request: Request,
  produce: (signal: AbortSignal) => AsyncIterable<E>,
  /**
   * `queuedBytes`: hold at most this many bytes for a reader that has not caught up (instead of QUEUED_CHUNKS events of any size).
   * `signal`: ends the stream when it aborts (the producer's own end, e.g. a subscription dropped), even while the reader is not reading.
   */
  options: { heartbeatMs?: number; headers?: HeadersInit; queuedBytes?: number; signal?: AbortSignal } = {},
) {
  const encoder = new TextEncoder();
  const upstream = new AbortController();
  const onClientGone = () => upstream.abort(new Error("client disconnected"));
  if (request.signal.aborted || options.signal?.aborted) onClientGone();
  request.signal.addEventListener("abort", onClientGone, { once: true });
  options.signal?.addEventListener("abort", onClientGone, { once: true });
  let heartbeat: NodeJS.Timeout | undefined;
  let iterator: AsyncIterator<E> | undefined;
  // Resolved when the reader wants more (pull) or the client is gone.
  let wake: (() => void) | undefined;
  const wakeUp = () => {
    wake?.();
    wake = undefined;
  };
  upstream.signal.addEventListener("abort", wakeUp, { once: true });
  // The sse_streams_open gauge: up when the stream starts, down once when it ends or the client leaves.
  let open = false;
  const closed = () => {
    if (open) sseStreamClosed();
    open = false;
  };

  const run = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
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
        // Backpressure: wait until the reader has taken what is queued.
        while ((controller.desiredSize ?? 1) <= 0 && !upstream.signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
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
      options.signal?.removeEventListener("abort", onClientGone);
      await iterator?.return?.().catch(() => {});
      try {
        controller.close();
      } catch {
        /* already closed by a disconnect */
      }
    }
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        open = true;
        sseStreamOpened();
        void run(controller);
      },
      pull() {
        wakeUp();
      },
      cancel() {
        closed();
        clearInterval(heartbeat);
        onClientGone();
      },
    },
    options.queuedBytes ? new ByteLengthQueuingStrategy({ highWaterMark: options.queuedBytes }) : new CountQueuingStrategy({ highWaterMark: QUEUED_CHUNKS }),
  );
  const headers = new Headers(options.headers);
  for (const [k, v] of Object.entries(SSE_HEADERS)) headers.set(k, v);
  return new Response(stream, { status: 200, headers });
}
