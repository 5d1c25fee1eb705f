import * as decoding from "lib0/decoding";
import { describe, expect, it } from "vitest";
import { Awareness, encodeAwarenessUpdate } from "y-protocols/awareness";
import * as Y from "yjs";
import { AppError } from "~/domain/errors";
import { colorFor, encodeAwareness, PRESENCE_TTL_MS, Presence, sanitizeAwareness } from "~/domain/live/presence.server";

/** Who is on a live PRD, and the awareness states the server relays (app/domain/live/presence.server.ts). */

function decode(update: Uint8Array) {
  const d = decoding.createDecoder(update);
  return Array.from({ length: decoding.readVarUint(d) }, () => ({
    clientID: decoding.readVarUint(d),
    clock: decoding.readVarUint(d),
    state: JSON.parse(decoding.readVarString(d)),
  }));
}

describe("sanitizeAwareness", () => {
  const me = { name: "Ana Author", color: colorFor("user-ana") };

  it("keeps only the sender's own entry and replaces its user with the account's", () => {
    const doc = new Y.Doc();
    const awareness = new Awareness(doc);
    awareness.setLocalState({ user: { name: "Somebody else", color: "#123456", avatar: "x" }, cursor: { anchor: 3, head: 3 } });
    const entry = sanitizeAwareness(encodeAwarenessUpdate(awareness, [doc.clientID]), doc.clientID, me);
    expect(entry?.clientID).toBe(doc.clientID);
    expect(JSON.parse(entry!.state)).toEqual({ user: me, cursor: { anchor: 3, head: 3 } });
    // The same update sent as someone else's Yjs client: nothing of it is kept.
    expect(sanitizeAwareness(encodeAwarenessUpdate(awareness, [doc.clientID]), doc.clientID + 1, me)).toBeNull();
    awareness.destroy();
  });

  it("refuses what is not an awareness update, or a state that is not an object", () => {
    for (const bytes of [
      new Uint8Array([1]),
      new Uint8Array([200, 200, 200]),
      encodeAwareness([{ clientID: 1, clock: 1, state: "[1,2]" }]),
      encodeAwareness([{ clientID: 1, clock: 1, state: "{nope" }]),
    ]) {
      let caught: unknown;
      try {
        sanitizeAwareness(bytes, 1, me);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).details?.[0]?.path).toBe("awareness");
    }
  });

  it("passes a client's departure (state null) on as it is", () => {
    const entry = sanitizeAwareness(encodeAwareness([{ clientID: 9, clock: 4, state: "null" }]), 9, me);
    expect(entry).toEqual({ clientID: 9, clock: 4, state: "null" });
  });
});

describe("Presence", () => {
  it("lists each user once with their strongest mode, and each client", () => {
    const p = new Presence();
    p.upsert({ userId: "u1", name: "Ben", clientId: "tab-one-1", mode: "viewing" });
    p.upsert({ userId: "u1", name: "Ben", clientId: "tab-two-2", mode: "editing" });
    p.upsert({ userId: "u2", name: "Ana", clientId: "tab-three", mode: "viewing" });
    expect(p.people()).toEqual([
      { userId: "u2", name: "Ana", color: colorFor("u2"), mode: "viewing" },
      { userId: "u1", name: "Ben", color: colorFor("u1"), mode: "editing" },
    ]);
    expect(p.clients()).toHaveLength(3);
    expect(colorFor("u1")).toBe(colorFor("u1"));
  });

  it("keys clients by user: another user's client id does not touch their entry", () => {
    const p = new Presence();
    p.upsert({ userId: "u1", name: "Ben", clientId: "shared-id", mode: "editing" });
    p.upsert({ userId: "u2", name: "Eve", clientId: "shared-id", mode: "viewing" });
    expect(p.people().find((x) => x.userId === "u1")?.mode).toBe("editing");
    expect(p.remove("u2", "shared-id")).toBeNull();
    expect(p.people().map((x) => x.userId)).toEqual(["u1"]);
  });

  it("lets nobody take over another user's Yjs client id (cursor)", () => {
    const p = new Presence();
    const ben = { clientID: 77, clock: 1, state: JSON.stringify({ user: { name: "Ben" } }) };
    p.upsert({ userId: "u1", name: "Ben", clientId: "ben-tab-1", mode: "editing", yClientId: 77, awareness: ben });
    const eve = p.upsert({ userId: "u2", name: "Eve", clientId: "eve-tab-1", mode: "editing", yClientId: 77, awareness: { ...ben, clock: 2 } });
    expect(eve.awareness).toBeNull();
    expect(p.awareness()).toEqual([ben]);
  });

  it("relays an awareness state only when its clock moves, and reports a new client or mode", () => {
    const p = new Presence();
    const state = (clock: number) => ({ clientID: 5, clock, state: "{}" });
    expect(p.upsert({ userId: "u1", name: "Ben", clientId: "ben-tab-1", mode: "viewing", yClientId: 5, awareness: state(1) }).changed).toBe(true);
    expect(p.upsert({ userId: "u1", name: "Ben", clientId: "ben-tab-1", mode: "viewing", yClientId: 5, awareness: state(1) })).toEqual({
      changed: false,
      awareness: null,
    });
    expect(p.upsert({ userId: "u1", name: "Ben", clientId: "ben-tab-1", mode: "viewing", yClientId: 5, awareness: state(2) }).awareness).toEqual(state(2));
    expect(p.upsert({ userId: "u1", name: "Ben", clientId: "ben-tab-1", mode: "editing" }).changed).toBe(true);
  });

  it("expires a client not heard from for 30 s and clears its cursor", () => {
    const p = new Presence();
    p.upsert({ userId: "u1", name: "Ben", clientId: "ben-tab-1", mode: "viewing", yClientId: 5, awareness: { clientID: 5, clock: 3, state: "{}" } }, 1000);
    p.upsert({ userId: "u2", name: "Ana", clientId: "ana-tab-1", mode: "viewing" }, 1000 + PRESENCE_TTL_MS - 1);
    const { any, removed } = p.expire(1000 + PRESENCE_TTL_MS);
    expect(any).toBe(true);
    expect(removed).toEqual([{ clientID: 5, clock: 4, state: "null" }]);
    expect(decode(encodeAwareness(removed))).toEqual([{ clientID: 5, clock: 4, state: null }]);
    expect(p.people().map((x) => x.userId)).toEqual(["u2"]);
  });
});
