/**
 * The fair scheduler of the diagram renderer (mermaid.server.ts): one lane
 * of jobs per organization, and the renderer always takes the next job from
 * the lane that was served longest ago (a lane never served comes first).
 * One job is one diagram, so a large export of organization A delays
 * organization B's diagram by at most the job already running (bounded by
 * the render timeout) — never by the rest of A's batch.
 *
 * Bounds: at most `maxPerTenant` jobs queued or running for one
 * organization and `maxTotal` for all; push() refuses more (null), and the
 * caller shows those diagrams as source.
 */

interface Job<T, R> {
  item: T;
  resolve: (result: R) => void;
}

interface Lane<T, R> {
  jobs: Job<T, R>[];
  /** Jobs of this tenant queued or running. */
  pending: number;
  /** Dispatch sequence of its last job (0: never served). */
  lastServed: number;
}

export interface FairQueueOptions {
  /** Jobs run at the same time (the renderer takes one diagram at a time). */
  concurrency: number;
  maxPerTenant: number;
  maxTotal: number;
}

export class FairQueue<T, R> {
  private lanes = new Map<string, Lane<T, R>>();
  private running = 0;
  private total = 0;
  private served = 0;

  /** `run` must not throw: its answer is what push() resolves to. */
  constructor(
    private readonly run: (item: T, tenant: string) => Promise<R>,
    private readonly options: FairQueueOptions,
  ) {}

  /** Queues one job; null when the tenant (or everybody) has too many pending. */
  push(tenant: string, item: T): Promise<R> | null {
    const lane = this.lanes.get(tenant) ?? { jobs: [], pending: 0, lastServed: 0 };
    if (lane.pending >= this.options.maxPerTenant || this.total >= this.options.maxTotal) return null;
    this.lanes.set(tenant, lane);
    lane.pending++;
    this.total++;
    const done = new Promise<R>((resolve) => lane.jobs.push({ item, resolve }));
    this.pump();
    return done;
  }

  /** Jobs queued or running for a tenant (tests, metrics). */
  pending(tenant: string) {
    return this.lanes.get(tenant)?.pending ?? 0;
  }

  private next(): [string, Lane<T, R>] | null {
    let best: [string, Lane<T, R>] | null = null;
    for (const entry of this.lanes) {
      if (entry[1].jobs.length && (!best || entry[1].lastServed < best[1].lastServed)) best = entry;
    }
    return best;
  }

  private pump() {
    while (this.running < this.options.concurrency) {
      const picked = this.next();
      if (!picked) return;
      const [tenant, lane] = picked;
      const job = lane.jobs.shift()!;
      lane.lastServed = ++this.served;
      this.running++;
      void this.run(job.item, tenant)
        .then(job.resolve, () => job.resolve(undefined as R))
        .finally(() => {
          this.running--;
          this.total--;
          lane.pending--;
          if (lane.pending === 0 && this.lanes.get(tenant) === lane) this.lanes.delete(tenant);
          this.pump();
        });
    }
  }
}
