import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { AppError } from "~/domain/errors";
import type { OfflineTask } from "./offline-tasks";
import type { ThreadAnswer, ThreadRequest } from "./offline-thread";

/**
 * The offline drafter runs in worker threads, never in the server's own
 * (issue 33): it is synchronous string work on whatever the user typed, and
 * one input that makes it slow (a 500,000-character selection, a pattern that
 * backtracks) would otherwise hold every other request for as long. Each
 * worker runs one task at a time; tasks wait their turn in one bounded
 * queue. A task that passes `offlineBounds.timeoutMs` (AI_OFFLINE_TIMEOUT_MS,
 * counted from when a worker starts it) ends its worker — the next task gets
 * a fresh one — and fails with 502 PROVIDER_ERROR, which a stream sends as
 * `error` / GENERATION_ERROR. docs/design/offline-pool.md has the rest.
 */

function envMs(name: string, fallback: number) {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value >= 100 && value <= 600_000 ? value : fallback;
}

export const offlineBounds = {
  /** Workers at most; two keep one slow task from queueing everyone else's. */
  workers: 2,
  /** Tasks waiting for a worker at most; past it, a task fails at once instead of waiting behind a pile. */
  queue: 64,
  timeoutMs: envMs("AI_OFFLINE_TIMEOUT_MS", 5_000),
  heapMb: 128,
  idleMs: 30_000,
};

interface Job {
  request: ThreadRequest;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The worker has loaded the drafter (its first message); a task's clock starts only then. */
  ready: boolean;
  job: Job | null;
  timer?: NodeJS.Timeout;
}

/** How long a new worker may take to load the drafter (tsx compiles it from source in development). */
const START_MS = 60_000;

const queue: Job[] = [];
const slots = new Set<Slot>();

const fromSource = import.meta.url.endsWith(".ts");

/** The bundled worker of the production build (build/offline-worker.js), wherever this chunk runs from. */
function bundledScript(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.resolve(here, "../../offline-worker.js"),
    path.resolve(here, "../offline-worker.js"),
    path.resolve(process.cwd(), "build/offline-worker.js"),
  ];
  const found = candidates.find((file) => fs.existsSync(file));
  if (!found) throw new Error(`The offline drafter (offline-worker.js) is missing; looked in ${candidates.join(", ")}`);
  return found;
}

function spawn(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: offlineBounds.heapMb, maxYoungGenerationSizeMb: 8 };
  if (!fromSource) return new Worker(bundledScript(), { resourceLimits });
  // Tests and `npm run dev` run the TypeScript source through tsx.
  const entry = pathToFileURL(fileURLToPath(new URL("./offline-thread.ts", import.meta.url))).href;
  const code = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { eval: true, resourceLimits });
}

const failed = (message: string) => new AppError("PROVIDER_ERROR", 502, message);

function retire(slot: Slot, error?: Error) {
  if (!slots.delete(slot)) return;
  clearTimeout(slot.timer);
  void slot.worker.terminate();
  const job = slot.job;
  slot.job = null;
  if (job && error) job.reject(error);
  pump();
}

function startSlot(): Slot {
  const slot: Slot = { worker: spawn(), ready: false, job: null };
  slots.add(slot);
  slot.worker.unref();
  slot.worker.on("message", (answer: ThreadAnswer) => {
    if ("ready" in answer) {
      slot.ready = true;
      if (slot.job) dispatch(slot);
      return;
    }
    const job = slot.job;
    slot.job = null;
    clearTimeout(slot.timer);
    slot.worker.unref();
    if (job) {
      // The drafter throwing is our bug, not the caller's input: a plain error (500), as when it ran in this thread.
      if ("value" in answer) job.resolve(answer.value);
      else job.reject(new Error(answer.error));
    }
    pump();
  });
  slot.worker.on("error", (error: Error & { code?: string }) =>
    retire(slot, error.code === "ERR_WORKER_OUT_OF_MEMORY" ? failed(`The offline drafter needed more than ${offlineBounds.heapMb} MB for this input`) : error),
  );
  slot.worker.on("exit", (code) => retire(slot, new Error(`The offline drafter stopped (exit code ${code})`)));
  return slot;
}

function pump() {
  for (const slot of slots) {
    if (!queue.length) break;
    if (!slot.job) run(slot, queue.shift()!);
  }
  while (queue.length && slots.size < offlineBounds.workers) {
    const job = queue.shift()!;
    let slot: Slot;
    try {
      slot = startSlot();
    } catch (error) {
      // No worker script (a build without build/offline-worker.js): this task fails, the server goes on.
      job.reject(error as Error);
      continue;
    }
    run(slot, job);
  }
  for (const slot of slots) {
    if (slot.job) continue;
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => retire(slot), offlineBounds.idleMs);
    slot.timer.unref();
  }
}

function run(slot: Slot, job: Job) {
  slot.job = job;
  clearTimeout(slot.timer);
  // Keeps the process alive while it works; an idle worker does not.
  slot.worker.ref();
  if (slot.ready) dispatch(slot);
  else slot.timer = setTimeout(() => retire(slot, failed("The offline drafter did not start")), START_MS);
}

function dispatch(slot: Slot) {
  const job = slot.job!;
  clearTimeout(slot.timer);
  const ms = offlineBounds.timeoutMs;
  const budget = ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
  slot.timer = setTimeout(
    () => retire(slot, failed(`The offline drafter took longer than ${budget} on this input and was stopped; shorten the text or connect an AI provider`)),
    offlineBounds.timeoutMs,
  );
  try {
    slot.worker.postMessage(job.request);
  } catch (error) {
    // Arguments that cannot cross to a thread are our bug: that task fails, the worker is replaced.
    retire(slot, error as Error);
  }
}

/** Runs one offline task in a worker thread. Rejects with 502 PROVIDER_ERROR past the time budget or when the queue is full. */
export function runOffline<T>(task: OfflineTask, args: unknown[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (queue.length >= offlineBounds.queue) return reject(failed("The offline drafter is busy; try again in a few seconds"));
    queue.push({ request: { task, args }, resolve: resolve as (value: unknown) => void, reject });
    pump();
  });
}

/** Workers running or idle, and tasks waiting (tests, metrics). */
export const offlinePoolState = () => ({ workers: slots.size, busy: [...slots].filter((s) => s.job).length, queued: queue.length });

/** Stops every worker (shutdown, tests). Queued tasks fail. */
export async function stopOfflineWorkers() {
  for (const job of queue.splice(0)) job.reject(new Error("The server is shutting down"));
  await Promise.all([...slots].map((slot) => (retire(slot, new Error("The server is shutting down")), slot.worker.terminate())));
}
