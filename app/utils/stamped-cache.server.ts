import { dataStamp } from "~/db.server";

/**
 * Results of expensive reads, kept while what they were computed from has
 * not changed since. "Changed" is the cache's stamp: `dataStamp` (any write,
 * by this process or another — the default) or a narrower version row such as
 * `searchStamp` (bumped by triggers on what search reads: docs/design/stamped-caches.md).
 * Nothing is ever served older than the last acknowledged write that could
 * change it. Concurrent identical reads share one computation. Least recently
 * used entries go first.
 */
export class StampedCache<V> {
  private entries = new Map<string, { stamp: string; value: Promise<V> }>();

  constructor(
    private readonly max = 500,
    /** What "changed" means: any write (default), or a narrower version such as searchStamp. */
    private readonly stamp: () => string = dataStamp,
  ) {}

  get(key: string, compute: () => Promise<V>): Promise<V> {
    // Read before computing: a write during the computation leaves the entry already stale.
    const stamp = this.stamp();
    const hit = this.entries.get(key);
    if (hit && hit.stamp === stamp) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const value = compute();
    this.entries.delete(key);
    this.entries.set(key, { stamp, value });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  clear() {
    this.entries.clear();
  }
}
