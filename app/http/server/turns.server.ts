/**
 * Requests take turns with everything else the event loop serves.
 *
 * better-sqlite3 answers synchronously, so an API request runs start to
 * finish without giving the loop back, and node's HTTP server hands over
 * every request that arrived since the last poll in one go: ten connections
 * reading the project list made one loop turn of ~12 ms before a timer, an
 * SSE chunk from an AI provider or the event dispatcher's next slice could
 * run. Here a loop turn spends at most `budgetMs` starting requests; a
 * request that arrives after that waits, in arrival order, for the next turn
 * (setImmediate), after timers and I/O had theirs.
 *
 * A job is the start of one request; the promise it returns is awaited only
 * while it settles without I/O (microtasks: a request answered from SQLite),
 * so a request waiting on the network (an AI call, a streamed file) never
 * holds up the ones behind it.
 */

type Job = () => Promise<unknown> | void;

export function createTurns(budgetMs: number) {
  let queue: (Job | undefined)[] = [];
  let head = 0;
  /** When this loop turn began starting requests; -1: none started yet. */
  let turnStart = -1;
  let draining = false;

  const startJob = (job: Job): Promise<unknown> | void => {
    try {
      const done = job();
      return done instanceof Promise ? done.catch(() => undefined) : undefined;
    } catch {
      return undefined;
    }
  };

  function withinTurn() {
    const now = performance.now();
    if (turnStart < 0) {
      turnStart = now;
      setImmediate(() => {
        if (!draining) turnStart = -1;
      });
      return true;
    }
    return now - turnStart < budgetMs;
  }

  async function drain() {
    turnStart = performance.now();
    let yielded = false;
    let nextTurn = new Promise<void>((resolve) => setImmediate(() => ((yielded = true), resolve())));
    while (head < queue.length) {
      const job = queue[head]!;
      queue[head++] = undefined;
      const done = startJob(job);
      if (done) await Promise.race([done, nextTurn]);
      if (yielded) {
        // A request waited on I/O: the loop has had its turn meanwhile.
        yielded = false;
        turnStart = performance.now();
        nextTurn = new Promise<void>((resolve) => setImmediate(() => ((yielded = true), resolve())));
      }
      if (performance.now() - turnStart >= budgetMs) break;
    }
    if (head < queue.length) {
      setImmediate(() => void drain());
      return;
    }
    queue = [];
    head = 0;
    draining = false;
    turnStart = -1;
  }

  /** Starts `job` now when this turn has time left and nobody is waiting, else in a later turn, in order. */
  return function admit(job: Job) {
    if (!draining && withinTurn()) return void startJob(job);
    queue.push(job);
    if (!draining) {
      draining = true;
      setImmediate(() => void drain());
    }
  };
}
