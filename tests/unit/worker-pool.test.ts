import { afterEach, describe, expect, it } from "vitest";
import { createWorkerPool, type Lane } from "~/utils/worker-pool.server";

const fail = () => new Error("failed");
const pools: Array<{ stop: () => Promise<void> }> = [];

function pool() {
  const created = createWorkerPool<{ ms: number }, number>({
    bundle: "no-bundle.js",
    source: new URL("../support/thread-id-thread.ts", import.meta.url),
    bounds: {
      workers: 2,
      queue: 32,
      heapMb: 64,
      timeoutMs: 30_000,
      idleMs: 30_000,
    },
    errors: { outOfMemory: fail, timeout: fail, busy: fail, stopped: fail },
  });
  pools.push(created);
  return created;
}

afterEach(async () => {
  for (const p of pools.splice(0)) await p.stop();
});

describe("the worker pool's lanes", () => {
  it("runs a sticky lane's jobs on one worker only, while the other worker takes other work", async () => {
    const workers = pool();
    const draft: Lane = { name: "draft", limit: 1, sticky: true };
    const firstDraft = workers.run({ ms: 50 }, draft);
    const longPlain = workers.run({ ms: 400 });
    const holder = await firstDraft;
    // The drafting worker is now busy with plain work, and the other worker frees up first.
    const plainOnHolder = workers.run({ ms: 900 });
    const laterDrafts = [workers.run({ ms: 10 }, draft), workers.run({ ms: 10 }, draft)];
    const other = await longPlain;
    expect(other).not.toBe(holder);
    // The free worker did not take the drafts: they waited for the worker that drafted before.
    expect(new Set(await Promise.all(laterDrafts))).toEqual(new Set([holder]));
    expect(await plainOnHolder).toBe(holder);
  });

  it("gives a sticky lane's worker its lane's job before a backlog of other work queued earlier", async () => {
    const workers = pool();
    const draft: Lane = { name: "draft", limit: 1, sticky: true };
    const holder = await workers.run({ ms: 1 }, draft);
    const order: string[] = [];
    const backlog = Array.from({ length: 6 }, (_, i) => workers.run({ ms: 60 }).then(() => order.push(`plain ${i}`)));
    const drafted = workers.run({ ms: 1 }, draft).then((id) => (order.push("draft"), id));
    expect(await drafted).toBe(holder);
    await Promise.all(backlog);
    // Each worker takes one plain job at once; the drafting worker's next job is the draft.
    expect(order.indexOf("draft")).toBeLessThanOrEqual(2);
  });

  it("lets a plain lane's jobs use any worker, one at a time", async () => {
    const workers = pool();
    const check: Lane = { name: "check", limit: 1 };
    let most = 0;
    const jobs = Array.from({ length: 6 }, () => workers.run({ ms: 15 }, check));
    const sampler = setInterval(() => (most = Math.max(most, workers.state().lanes.check ?? 0)), 2);
    await Promise.all(jobs);
    clearInterval(sampler);
    expect(most).toBe(1);
  });

  it("moves a sticky lane to a fresh worker once its worker is gone", async () => {
    const workers = pool();
    const draft: Lane = { name: "draft", limit: 1, sticky: true };
    const first = await workers.run({ ms: 1 }, draft);
    await workers.stop();
    const second = await workers.run({ ms: 1 }, draft);
    expect(second).not.toBe(first);
  });
});
