import { AppError } from "~/domain/errors";
import { createWorkerPool, type Lane } from "~/utils/worker-pool.server";
import type { OfflineTask } from "./offline-tasks";
import type { ThreadRequest } from "./offline-thread";

/**
 * The offline drafter runs in worker threads, never in the server's own
 * (issue 33): it is synchronous string work on whatever the user typed, and
 * one input that makes it slow (a 500,000-character selection, a pattern that
 * backtracks) would otherwise hold every other request for as long. Each
 * worker runs one task at a time; tasks wait their turn in one bounded
 * queue. A task that passes `offlineBounds.timeoutMs` (AI_OFFLINE_TIMEOUT_MS,
 * counted from when a worker starts it) ends its worker — the next task gets
 * a fresh one — and fails with 502 PROVIDER_ERROR, which a stream sends as
 * `error` / GENERATION_ERROR. The pool itself is utils/worker-pool.server.ts;
 * docs/design/offline-pool.md has the rest.
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
  /** Each worker's heap: with two of them the server stays under 400 MB of RSS (docs/benchmarks.md, bench-abuse). */
  heapMb: 96,
  /** An idle worker gives its memory back after this long. */
  idleMs: 10_000,
};

const failed = (message: string) => new AppError("PROVIDER_ERROR", 502, message);
const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`);

const pool = createWorkerPool<ThreadRequest, unknown>({
  bundle: "offline-worker.js",
  source: new URL("./offline-thread.ts", import.meta.url),
  bounds: offlineBounds,
  announcesReady: true,
  errors: {
    outOfMemory: (heapMb) => failed(`The offline drafter needed more than ${heapMb} MB for this input`),
    timeout: (ms) => failed(`The offline drafter took longer than ${seconds(ms)} on this input and was stopped; shorten the text or connect an AI provider`),
    busy: () => failed("The offline drafter is busy; try again in a few seconds"),
    stopped: (code) => new Error(`The offline drafter stopped (exit code ${code})`),
    notStarted: () => failed("The offline drafter did not start"),
  },
});

/**
 * Long PRD checks (check-cache.server.ts sends texts over 32,000 characters
 * here) run on one worker at a time: a burst of them leaves the other worker
 * to drafting, and the pool's memory at one worker's worth. Drafting tasks
 * read text with the NLP model (app/ai/nlp/engine.ts, ~50 MB once loaded),
 * so they run on one worker, the same one while it lives (a sticky lane):
 * the model is held once, not by every worker in turn, and the server stays
 * under 400 MB (npm run bench:abuse).
 */
const CHECK: Lane = { name: "check", limit: 1 };
const DRAFT: Lane = { name: "draft", limit: 1, sticky: true };
const laneOf = (task: OfflineTask): Lane => (task === "checkPrd" ? CHECK : DRAFT);

/** Runs one offline task in a worker thread. Rejects with 502 PROVIDER_ERROR past the time budget or when the queue is full. */
export function runOffline<T>(task: OfflineTask, args: unknown[]): Promise<T> {
  return pool.run({ task, args }, laneOf(task)) as Promise<T>;
}

/** Workers running or idle, and tasks waiting (tests, metrics). */
export const offlinePoolState = pool.state;

/** Stops every worker (shutdown, tests). Queued tasks fail. */
export const stopOfflineWorkers = pool.stop;
