import os from "node:os";
import { createWorkerPool } from "~/utils/worker-pool.server";
import type { ExportDocument } from "./document";
import type { References, RenderFormat, ThreadRequest } from "./render-thread";

/**
 * The PDF, DOCX and HTML renderers run in worker threads, never in the
 * server's own: a 30,000-word PDF is 150–500 ms of layout that would hold
 * every other request for as long, and its garbage stays in the worker's
 * heap (capped) instead of the server's. Each worker renders one document at
 * a time; exports wait their turn in one queue. A worker that crashes, runs
 * out of heap or takes longer than `renderBounds.timeoutMs` is terminated
 * (the export fails, the next one gets a fresh worker); one idle for
 * `renderBounds.idleMs` is stopped, giving its memory back. The pool itself
 * is utils/worker-pool.server.ts.
 */

export const renderBounds = {
  /** Workers at most: one core stays for requests. */
  workers: Math.max(1, Math.min(2, os.availableParallelism() - 1)),
  /** Exports wait their turn however many there are (each caller holds one request open). */
  queue: Number.POSITIVE_INFINITY,
  heapMb: 256,
  timeoutMs: 60_000,
  idleMs: 30_000,
};

const pool = createWorkerPool<ThreadRequest, unknown>({
  bundle: "render-worker.js",
  source: new URL("./render-thread.ts", import.meta.url),
  bounds: renderBounds,
  errors: {
    outOfMemory: (heapMb) => new Error(`The export needed more than ${heapMb} MB to render`),
    timeout: (ms) => new Error(`The export took longer than ${ms / 1000} s to render`),
    busy: () => new Error("The export renderer is busy"),
    stopped: (code) => new Error(`The export renderer stopped (exit code ${code})`),
  },
});

/** Renders one prepared document in a worker thread; the bytes of the file. */
export function renderInWorker(format: RenderFormat, doc: ExportDocument): Promise<Uint8Array> {
  return pool.run({ op: "render", format, doc }) as Promise<Uint8Array>;
}

/** The Mermaid sources and image URLs of a PRD, lexed in a worker thread. */
export function referencesInWorker(markdown: string): Promise<References> {
  return pool.run({ op: "references", markdown }) as Promise<References>;
}

/** Stops every worker (shutdown, tests). Queued exports fail. */
export const stopRenderWorkers = pool.stop;
