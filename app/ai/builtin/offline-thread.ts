import { parentPort } from "node:worker_threads";
import { type OfflineTask, offlineTasks } from "./offline-tasks";

/**
 * The offline drafter's own thread (offline-pool.server.ts starts it): one
 * message in, one answer out. `{ task, args }` runs `offlineTasks[task](...args)`
 * and answers `{ value }`, or `{ error }` when the drafter threw; `{ ready }`
 * first, once the drafter is loaded. The drafter
 * is synchronous string work on the user's text; here a slow input holds
 * this thread, never the server's, and the pool ends it when it passes its
 * time budget. The production build bundles this file as
 * build/offline-worker.js; from source it runs through tsx.
 */

export type ThreadRequest = { task: OfflineTask; args: unknown[] };
export type ThreadAnswer = { value: unknown } | { error: string } | { ready: true };

parentPort?.on("message", (request: ThreadRequest) => {
  try {
    const run = Object.hasOwn(offlineTasks, request.task) ? (offlineTasks[request.task] as (...args: unknown[]) => unknown) : undefined;
    if (typeof run !== "function") throw new Error(`The offline drafter has no task ${String(request.task)}`);
    parentPort!.postMessage({ value: run(...request.args) } satisfies ThreadAnswer);
  } catch (error) {
    parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies ThreadAnswer);
  }
});

// Loaded: the pool starts a task's clock from here, not from the thread's start.
parentPort?.postMessage({ ready: true } satisfies ThreadAnswer);
