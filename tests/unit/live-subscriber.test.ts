import { describe, expect, it } from "vitest";
import type { Actor } from "~/domain/actor";
import { MAX_QUEUED_BYTES, Subscriber, withState } from "~/domain/live/live-doc.server";
import { MAX_LIVE_DOC_BYTES } from "~/domain/live/limits.server";
import { LIVE_STATE_PART_CHARS } from "~/domain/live/live.schema";

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

  it("drops a client more than 16 MB behind", () => {
    const sub = new Subscriber(actor, "slow-client", false, () => {});
    const big = "A".repeat(1024 * 1024);
    for (let i = 0; i < 15; i++) sub.push({ type: "update", update: big, clientId: "other-client" });
    expect(sub.closed).toBe(false);
    sub.push({ type: "update", update: big, clientId: "other-client" });
    expect(sub.closed).toBe(true);
    expect(MAX_QUEUED_BYTES).toBe(16 * 1024 * 1024);
  });

  it("takes the sync of a document at its size limit in parts of at most 64 KB, without being dropped for it", () => {
    const sub = new Subscriber(actor, "new-client", false, () => {});
    const state = "A".repeat(Math.ceil(MAX_LIVE_DOC_BYTES / 3) * 4);
    const events = withState({ type: "sync", epoch: "e", versionId: null, canEdit: false, people: [], clients: [] }, state);
    expect(events.length).toBe(Math.ceil(state.length / LIVE_STATE_PART_CHARS));
    expect(events[0]).toMatchObject({ type: "sync", parts: events.length });
    expect(events.slice(1).every((e, i) => e.type === "state" && e.part === i + 2)).toBe(true);
    expect(events.every((e) => "state" in e && e.state.length <= LIVE_STATE_PART_CHARS)).toBe(true);
    expect(events.map((e) => ("state" in e ? e.state : "")).join("")).toBe(state);
    sub.pushState(events);
    expect(sub.closed).toBe(false);
    expect(sub.backlog.bytes).toBeLessThan(MAX_QUEUED_BYTES);
  });
});
