import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * A small pool of worker threads for synchronous work that must never hold
 * the server's thread (the offline drafter, the export renderers). Each
 * worker runs one task at a time; tasks wait their turn in one queue. A
 * worker that crashes, runs out of heap or passes `bounds.timeoutMs` on a
 * task is terminated (that task fails, the next one gets a fresh worker);
 * one idle for `bounds.idleMs` is stopped, giving its memory back. The
 * bounds are read at every use, so a test may change them.
 *
 * The thread answers each request with `{ value }` or `{ error }`; a pool
 * with `announcesReady` also waits for its `{ ready: true }` (sent once its
 * code is loaded) before a task's clock starts.
 */

export interface PoolBounds {
  /** Workers at most. */
  workers: number;
  /** Tasks waiting for a worker at most (Infinity: no bound). */
  queue: number;
  /** Heap of each worker (MB); past it the task fails. */
  heapMb: number;
  /** Longest a task may run. */
  timeoutMs: number;
  /** An idle worker stops after this long. */
  idleMs: number;
}

export interface PoolOptions {
  /** The production build's bundled thread, next to the server (build/…): `offline-worker.js`. */
  bundle: string;
  /** The thread's TypeScript source, run through tsx in tests and `npm run dev`. */
  source: URL;
  bounds: PoolBounds;
  /** The thread sends `{ ready: true }` once loaded; a task's clock starts only then. */
  announcesReady?: boolean;
  /** The error a task gets for each way the pool can fail it. */
  errors: {
    outOfMemory: (heapMb: number) => Error;
    timeout: (ms: number) => Error;
    busy: () => Error;
    stopped: (code: number) => Error;
    notStarted?: () => Error;
  };
}

/**
 * A lane: its jobs run on at most `limit` workers at once. A `sticky` lane's
 * jobs run only on workers that ran one before, while any is alive: what the
 * lane loads (the offline drafter's NLP model, ~50 MB) is held by `limit`
 * workers at most, not by every worker in turn.
 */
export interface Lane {
  name: string;
  limit: number;
  sticky?: boolean;
}

type Answer = { value: unknown } | { error: string } | { ready: true };

interface Job {
  request: unknown;
  /** Jobs of one lane run on at most `limit` workers at once (the others stay free for other work). */
  lane?: Lane;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  /** The sticky lanes this worker has run a job of. */
  served: Set<string>;
  timer?: NodeJS.Timeout;
}

/** How long a new worker may take to load (tsx compiles it from source in development). */
const START_MS = 60_000;

const fromSource = import.meta.url.endsWith(".ts");

/** The bundled thread of the production build, wherever the server's chunk runs from. */
function bundledScript(bundle: string): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.resolve(here, bundle),
    path.resolve(here, "..", bundle),
    path.resolve(here, "..", "..", bundle),
    path.resolve(process.cwd(), "build", bundle),
  ];
  const found = candidates.find((file) => fs.existsSync(file));
  if (!found) throw new Error(`${bundle} is missing; looked in ${candidates.join(", ")}`);
  return found;
}

export function createWorkerPool<Request, Value>(options: PoolOptions) {
  const { bounds, errors } = options;
  const queue: Job[] = [];
  const slots = new Set<Slot>();

  function spawn(): Worker {
    const resourceLimits = {
      maxOldGenerationSizeMb: bounds.heapMb,
      maxYoungGenerationSizeMb: 8,
    };
    if (!fromSource) return new Worker(bundledScript(options.bundle), { resourceLimits });
    const entry = pathToFileURL(fileURLToPath(options.source)).href;
    const code = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
    return new Worker(code, { eval: true, resourceLimits });
  }

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
    const slot: Slot = {
      worker: spawn(),
      ready: !options.announcesReady,
      job: null,
      served: new Set(),
    };
    slots.add(slot);
    slot.worker.unref();
    slot.worker.on("message", (answer: Answer) => {
      if ("ready" in answer) {
        slot.ready = true;
        if (slot.job) dispatch(slot);
        return;
      }
      const job = slot.job;
      slot.job = null;
      clearTimeout(slot.timer);
      slot.worker.unref();
      // The thread throwing is our bug, not the caller's input: a plain error (500).
      if (job) "value" in answer ? job.resolve(answer.value) : job.reject(new Error(answer.error));
      pump();
    });
    slot.worker.on("error", (error: Error & { code?: string }) =>
      retire(slot, error.code === "ERR_WORKER_OUT_OF_MEMORY" ? errors.outOfMemory(bounds.heapMb) : error),
    );
    slot.worker.on("exit", (code) => retire(slot, errors.stopped(code)));
    return slot;
  }

  /** May `job` run on `slot` (undefined: a worker about to start)? Its lane needs room, and a sticky lane a worker that ran it before when one is alive. */
  function fits(job: Job, slot: Slot | undefined): boolean {
    const lane = job.lane;
    if (!lane) return true;
    const all = [...slots];
    if (all.filter((s) => s.job?.lane?.name === lane.name).length >= lane.limit) return false;
    if (!lane.sticky) return true;
    const holders = all.filter((s) => s.served.has(lane.name)).length;
    return slot ? slot.served.has(lane.name) || holders < lane.limit : holders < lane.limit;
  }

  /**
   * The first queued job that may run on `slot`, taken off the queue: a job
   * of a sticky lane this worker holds first, since no other worker may take
   * it (a burst of other work would otherwise hold the lane back for as long).
   */
  function next(slot: Slot | undefined): Job | undefined {
    const own = slot ? queue.findIndex((job) => job.lane?.sticky && slot.served.has(job.lane.name) && fits(job, slot)) : -1;
    const index = own >= 0 ? own : queue.findIndex((job) => fits(job, slot));
    return index < 0 ? undefined : queue.splice(index, 1)[0];
  }

  function pump() {
    for (const slot of slots) {
      if (slot.job) continue;
      const job = next(slot);
      if (job) run(slot, job);
    }
    while (slots.size < bounds.workers) {
      const job = next(undefined);
      if (!job) break;
      let slot: Slot;
      try {
        slot = startSlot();
      } catch (error) {
        // No thread script (a build without it): this task fails, the server goes on.
        job.reject(error as Error);
        continue;
      }
      run(slot, job);
    }
    for (const slot of slots) {
      if (slot.job) continue;
      clearTimeout(slot.timer);
      slot.timer = setTimeout(() => retire(slot), bounds.idleMs);
      slot.timer.unref();
    }
  }

  function run(slot: Slot, job: Job) {
    slot.job = job;
    if (job.lane?.sticky) slot.served.add(job.lane.name);
    clearTimeout(slot.timer);
    // Keeps the process alive while it works; an idle worker does not.
    slot.worker.ref();
    if (slot.ready) dispatch(slot);
    else slot.timer = setTimeout(() => retire(slot, (errors.notStarted ?? (() => errors.timeout(START_MS)))()), START_MS);
  }

  function dispatch(slot: Slot) {
    const job = slot.job!;
    clearTimeout(slot.timer);
    const ms = bounds.timeoutMs;
    slot.timer = setTimeout(() => retire(slot, errors.timeout(ms)), ms);
    try {
      slot.worker.postMessage(job.request);
    } catch (error) {
      // A request that cannot cross to a thread is our bug: that task fails, the worker is replaced.
      retire(slot, error as Error);
    }
  }

  return {
    /** Runs one request in a worker; rejects when the queue is full, past the time budget or the heap. */
    run(request: Request, lane?: Lane): Promise<Value> {
      return new Promise<Value>((resolve, reject) => {
        if (queue.length >= bounds.queue) return reject(errors.busy());
        queue.push({
          request,
          lane,
          resolve: resolve as (value: unknown) => void,
          reject,
        });
        pump();
      });
    },
    /** Workers running or idle, tasks waiting, and the busy workers of each lane (tests, metrics). */
    state: () => {
      const lanes: Record<string, number> = {};
      for (const slot of slots) if (slot.job?.lane) lanes[slot.job.lane.name] = (lanes[slot.job.lane.name] ?? 0) + 1;
      return {
        workers: slots.size,
        busy: [...slots].filter((s) => s.job).length,
        queued: queue.length,
        lanes,
      };
    },
    /** Stops every worker (shutdown, tests). Queued tasks fail. */
    async stop() {
      for (const job of queue.splice(0)) job.reject(new Error("The server is shutting down"));
      await Promise.all([...slots].map((slot) => (retire(slot, new Error("The server is shutting down")), slot.worker.terminate())));
    },
  };
}
