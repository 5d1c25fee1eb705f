import { describe, expect, it } from "vitest";
import { createTurns } from "~/http/server/turns.server";

/** Requests take turns with timers and I/O (app/http/server/turns.server.ts). */

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
const settle = () => new Promise((r) => setTimeout(r, 50));
/** Waits (up to 5 s) until `log` holds `count` entries other than the timer: a loaded machine may take longer than 50 ms. */
async function until(log: string[], count: number) {
  const end = Date.now() + 5000;
  while (log.filter((l) => l !== "timer").length < count && Date.now() < end) await settle();
}

describe("request turns", () => {
  it("starts requests in arrival order, and lets a timer run once a turn has spent its budget", async () => {
    const admit = createTurns(4);
    const log: string[] = [];
    setTimeout(() => log.push("timer"), 0);
    // Ten requests arrive at once, each with 2 ms of synchronous work (as an SQLite read is).
    for (let i = 0; i < 10; i++) admit(async () => (busy(2), log.push(`request ${i}`)));
    await until(log, 10);
    const requests = log.filter((l) => l !== "timer");
    expect(requests).toEqual(Array.from({ length: 10 }, (_, i) => `request ${i}`));
    // Without turns all ten would run before the timer (20 ms of one loop turn).
    expect(log.indexOf("timer")).toBeGreaterThan(0);
    expect(log.indexOf("timer")).toBeLessThan(9);
  });

  it("runs requests one after another in the same turn while they are quick", async () => {
    const admit = createTurns(50);
    const log: string[] = [];
    setTimeout(() => log.push("timer"), 0);
    for (let i = 0; i < 5; i++) admit(async () => void log.push(`request ${i}`));
    await until(log, 5);
    await settle();
    expect(log).toEqual(["request 0", "request 1", "request 2", "request 3", "request 4", "timer"]);
  });

  it("never holds the requests behind one that waits on I/O", async () => {
    const admit = createTurns(4);
    const log: string[] = [];
    for (let i = 0; i < 12; i++) admit(async () => (busy(1), log.push(`quick ${i}`)));
    // The slow one waits on I/O that answers only when the test says so: no race with a timer on a loaded machine.
    let answer!: () => void;
    admit(() => new Promise<void>((resolve) => (answer = () => resolve(void log.push("slow done")))));
    admit(async () => void log.push("after slow"));
    await until(log, 13);
    expect(log).toContain("after slow");
    expect(log).not.toContain("slow done");
    answer();
    await until(log, 14);
    expect(log.filter((l) => l.startsWith("quick"))).toHaveLength(12);
  });

  it("keeps going when a request throws or rejects", async () => {
    const admit = createTurns(4);
    const log: string[] = [];
    admit(() => {
      throw new Error("sync failure");
    });
    for (let i = 0; i < 6; i++) admit(async () => (busy(1), log.push(`a ${i}`)));
    admit(() => Promise.reject(new Error("async failure")));
    admit(async () => void log.push("last"));
    await until(log, 7);
    expect(log).toEqual(["a 0", "a 1", "a 2", "a 3", "a 4", "a 5", "last"]);
  });
});
