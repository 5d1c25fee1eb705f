import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { AppError } from "../errors";
import { MAX_EXTRACTED_CHARS } from "./uploads.schema";
import { parseBounds, parseTooHungry, parseTooSlow } from "./parse-bounds.server";
import { EXIT_BUFFERS, PARSE_WORKER_SCRIPT } from "./parse-worker-script";

/**
 * pdf.js and mammoth run in a worker thread, one per document, never in the
 * server's own thread: with a V8 heap limit, a limit on its buffers (the
 * worker watches them) and a wall-clock limit after which it is terminated,
 * all from `parseBounds`; at most `parseBounds.concurrency` at once, the
 * rest wait their turn. A worker over a limit is 413; the caller's signal
 * (the client went away) terminates it too, answered as a 409 nobody reads
 * rather than logged as a server error.
 */

export type ParseAnswer = { text: string; pages: number; cut: boolean } | { html: string; cut: boolean } | { failed: "password" | "damaged" };

/** Text kept from the parser's answer, so a huge document never crosses into the server thread whole. */
const MAX_ANSWER_CHARS = MAX_EXTRACTED_CHARS * 20;

const cancelled = () => new AppError("CONFLICT", 409, "The request was cancelled before the document was read.");

let urls: { unpdf: string; mammoth: string } | undefined;
function libraryUrls() {
  const require = createRequire(import.meta.url);
  urls ??= { unpdf: pathToFileURL(require.resolve("unpdf")).href, mammoth: pathToFileURL(require.resolve("mammoth")).href };
  return urls;
}

let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= parseBounds.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, or is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export function parseInWorker(kind: "pdf" | "docx", data: Uint8Array, signal?: AbortSignal): Promise<ParseAnswer> {
  return inTurn(() => run(kind, data, signal));
}

function run(kind: "pdf" | "docx", data: Uint8Array, signal?: AbortSignal): Promise<ParseAnswer> {
  const { timeoutMs, heapMb, bufferMb } = parseBounds;
  // The worker gets its own copy: the caller may still store the original.
  const copy = new Uint8Array(data);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const worker = new Worker(PARSE_WORKER_SCRIPT, {
      eval: true,
      workerData: { kind, data: copy, urls: libraryUrls(), bufferLimit: bufferMb * 1024 * 1024, maxChars: MAX_ANSWER_CHARS },
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(() => settle(() => reject(parseTooSlow(timeoutMs))), timeoutMs);
    const onAbort = () => settle(() => reject(cancelled()));
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (answer: ParseAnswer) => settle(() => resolve(answer)));
    worker.on("error", (error: Error & { code?: string }) => settle(() => reject(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? parseTooHungry(heapMb) : error)));
    worker.on("exit", (code) =>
      settle(() => reject(code === EXIT_BUFFERS ? parseTooHungry(bufferMb) : new Error(`The document parser stopped (exit code ${code})`))),
    );
  });
}
