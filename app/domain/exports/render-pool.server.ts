import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { ExportDocument } from "./document";
import type { References, RenderFormat, ThreadAnswer, ThreadRequest } from "./render-thread";

/**
 * The PDF, DOCX and HTML renderers run in worker threads, never in the
 * server's own: a 30,000-word PDF is 150–500 ms of layout that would hold
 * every other request for as long, and its garbage stays in the worker's
 * heap (capped) instead of the server's. Each worker renders one document at
 * a time; exports wait their turn in one queue. A worker that crashes, runs
 * out of heap or takes longer than `renderBounds.timeoutMs` is terminated
 * (the export fails, the next one gets a fresh worker); one idle for
 * `renderBounds.idleMs` is stopped, giving its memory back.
 */

export const renderBounds = {
  /** Workers at most: one core stays for requests. */
  workers: Math.max(1, Math.min(2, os.availableParallelism() - 1)),
  heapMb: 256,
  timeoutMs: 60_000,
  idleMs: 30_000,
};

interface Job {
  request: ThreadRequest;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer?: NodeJS.Timeout;
}

const queue: Job[] = [];
const slots = new Set<Slot>();

const fromSource = import.meta.url.endsWith(".ts");

/** The bundled worker of the production build (build/render-worker.js), wherever this chunk runs from. */
function bundledScript(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.resolve(here, "../../render-worker.js"),
    path.resolve(here, "../render-worker.js"),
    path.resolve(process.cwd(), "build/render-worker.js"),
  ];
  const found = candidates.find((file) => fs.existsSync(file));
  if (!found) throw new Error(`The export renderer (render-worker.js) is missing; looked in ${candidates.join(", ")}`);
  return found;
}

function spawn(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: renderBounds.heapMb, maxYoungGenerationSizeMb: 8 };
  if (!fromSource) return new Worker(bundledScript(), { resourceLimits });
  // Tests and `npm run dev` run the TypeScript source through tsx.
  const entry = pathToFileURL(fileURLToPath(new URL("./render-thread.ts", import.meta.url))).href;
  const code = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { eval: true, resourceLimits });
}

function retire(slot: Slot, error?: Error) {
  if (!slots.delete(slot)) return;
  clearTimeout(slot.timer);
  void slot.worker.terminate();
  if (slot.job && error) slot.job.reject(error);
  slot.job = null;
  pump();
}

function startSlot(): Slot {
  const slot: Slot = { worker: spawn(), job: null };
  slots.add(slot);
  slot.worker.unref();
  slot.worker.on("message", (answer: ThreadAnswer) => {
    const job = slot.job;
    slot.job = null;
    clearTimeout(slot.timer);
    slot.worker.unref();
    if (job) {
      if ("value" in answer) job.resolve(answer.value);
      else job.reject(new Error(answer.error));
    }
    pump();
  });
  slot.worker.on("error", (error: Error & { code?: string }) =>
    retire(slot, error.code === "ERR_WORKER_OUT_OF_MEMORY" ? new Error(`The export needed more than ${renderBounds.heapMb} MB to render`) : error),
  );
  slot.worker.on("exit", (code) => retire(slot, new Error(`The export renderer stopped (exit code ${code})`)));
  return slot;
}

function pump() {
  for (const slot of slots) {
    if (!queue.length) break;
    if (!slot.job) run(slot, queue.shift()!);
  }
  while (queue.length && slots.size < renderBounds.workers) run(startSlot(), queue.shift()!);
  for (const slot of slots) {
    if (slot.job) continue;
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => retire(slot), renderBounds.idleMs);
    slot.timer.unref();
  }
}

function run(slot: Slot, job: Job) {
  slot.job = job;
  clearTimeout(slot.timer);
  // Keeps the process alive while it renders; an idle worker does not.
  slot.worker.ref();
  slot.timer = setTimeout(() => retire(slot, new Error(`The export took longer than ${renderBounds.timeoutMs / 1000} s to render`)), renderBounds.timeoutMs);
  slot.worker.postMessage(job.request);
}

function inWorker<T>(request: ThreadRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    queue.push({ request, resolve: resolve as (value: unknown) => void, reject });
    pump();
  });
}

/** Renders one prepared document in a worker thread; the bytes of the file. */
export function renderInWorker(format: RenderFormat, doc: ExportDocument): Promise<Uint8Array> {
  return inWorker({ op: "render", format, doc });
}

/** The Mermaid sources and image URLs of a PRD, lexed in a worker thread. */
export function referencesInWorker(markdown: string): Promise<References> {
  return inWorker({ op: "references", markdown });
}

/** Stops every worker (shutdown, tests). Queued exports fail. */
export async function stopRenderWorkers() {
  for (const job of queue.splice(0)) job.reject(new Error("The server is shutting down"));
  await Promise.all([...slots].map((slot) => (retire(slot, new Error("The server is shutting down")), slot.worker.terminate())));
}
