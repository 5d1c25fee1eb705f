import { parentPort, threadId } from "node:worker_threads";

/** A worker for the pool's own tests (tests/unit/worker-pool.test.ts): answers each request, after `ms`, with the id of the thread that ran it. */
parentPort?.on("message", (request: { ms: number }) => {
  setTimeout(() => parentPort!.postMessage({ value: threadId }), request.ms);
});
