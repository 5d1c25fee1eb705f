import { describe, expect, it } from "vitest";
import type { Actor } from "~/domain/actor";
import { Subscriber } from "~/domain/live/live-doc.server";

/** One open live stream's queue of events (app/domain/live/live-doc.server.ts). */

const actor = { user: { id: "u1", name: "Ben" } } as Actor;

describe("Subscriber", () => {
  it("hands out its events in order and ends when the stream is aborted", async () => {
    const sub = new Subscriber(actor, "client-one", true, () => {});
    sub.push({ type: "version", versionId: "v1", versionNumber: 1 });
    sub.push({ type: "update", update: "AAA=", clientId: "other-client" });
    const controller = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of sub.events(controller.signal)) seen.push(event.type);
    })();
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(["version", "update"]);
    controller.abort();
    await reading;
    expect(sub.closed).toBe(true);
  });

  it("drops a client that falls more than 5,000 events behind (it reconnects and syncs again)", () => {
    let closed = 0;
    const sub = new Subscriber(actor, "slow-client", false, () => closed++);
    for (let i = 0; i < 5000; i++) sub.push({ type: "update", update: "AAA=", clientId: "other-client" });
    expect(sub.closed).toBe(false);
    sub.push({ type: "update", update: "AAA=", clientId: "other-client" });
    expect(sub.closed).toBe(true);
    expect(closed).toBe(1);
  });

  it("drops a client more than 8 MB behind", () => {
    const sub = new Subscriber(actor, "slow-client", false, () => {});
    const big = "A".repeat(1024 * 1024);
    for (let i = 0; i < 8; i++) sub.push({ type: "update", update: big, clientId: "other-client" });
    expect(sub.closed).toBe(true);
  });
});
