import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { remixHandler } from "../support/build";
import { ORIGIN, signedUpClient } from "../support/client";
import { b64, LiveClient } from "../support/live";
import { parseSse } from "../support/sse";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";

/**
 * The bounds of live editing (docs/design/live-editing.md, "Limits"), attacked
 * through the real routes the way a hostile reader or editor would: too many
 * streams, presence without a stream, updates into other Yjs types, updates
 * of many tiny items, a huge document, a reader that never reads. The caps
 * are lowered for this file so they can be reached quickly.
 */

process.env.LIVE_MAX_STREAMS_PER_USER = "3";
process.env.LIVE_MAX_STREAMS_PER_PROJECT = "5";
process.env.LIVE_MAX_DOC_ITEMS = "50000";
// No idle checkpoint while a test runs (a huge test document would be reset by it).
process.env.LIVE_IDLE_MS = "600000";
const { resetConfigForTests } = await import("~/config.server");
resetConfigForTests();
const { dropLiveDocs } = await import("~/domain/live/live.server");
const { loadedLiveDoc } = await import("~/domain/live/live-docs.server");
const { countItems, userStreams, LIVE_MAX_UPDATE_ITEMS, LIVE_STREAM_BUFFER_BYTES } = await import("~/domain/live/limits.server");
const LIVE_MAX_DOC_ITEMS = 50_000;
const { storedUpdateCount } = await import("~/domain/live/store.server");
const { LIVE_STATE_PART_CHARS } = await import("~/domain/live/live.schema");

const PRD = "# Bounds\n\n## Overview\n\nA small PRD for the bounds of live editing.\n";

let ana: Account; // owner
let ben: Account; // admin
let vic: Account; // viewer collaborator
let cora: Account; // commenter collaborator
const open: LiveClient[] = [];

async function freshProject(content = PRD) {
  const created = await ana.client.post("/api/projects", { name: `Bounds ${Math.random().toString(36).slice(2, 8)}` });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  expect((await ana.client.post(`/api/projects/${id}/prd`, { content })).status).toBe(201);
  for (const [who, role] of [
    [vic, "viewer"],
    [cora, "commenter"],
  ] as const) {
    expect((await ana.client.post(`/api/projects/${id}/collaborators`, { email: who.email, role })).status).toBe(201);
  }
  return id;
}

async function connect(account: Account, id: string) {
  const client = new LiveClient(account, id);
  open.push(client);
  const res = await client.open();
  expect(res.status, res.text).toBe(200);
  await client.synced();
  return client;
}

const tryOpen = async (account: Account, id: string) => {
  const client = new LiveClient(account, id);
  open.push(client);
  return client.open();
};

/** The cookie header of an account, as a browser sends it. */
const cookieOf = (account: Account) => [...account.client.jar].map(([k, v]) => `${k}=${v}`).join("; ");

beforeAll(async () => {
  ana = await signedUpClient({ name: "Ana Owner" });
  await setPlan(ana.organization.id, "enterprise");
  ben = await joinOrg(ana.organization.id, "admin", "Ben Admin");
  vic = await joinOrg(ana.organization.id, "viewer", "Vic Viewer");
  cora = await joinOrg(ana.organization.id, "viewer", "Cora Commenter");
});

afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

afterAll(() => {
  dropLiveDocs();
  for (const key of ["LIVE_MAX_STREAMS_PER_USER", "LIVE_MAX_STREAMS_PER_PROJECT", "LIVE_MAX_DOC_ITEMS", "LIVE_IDLE_MS"]) delete process.env[key];
  resetConfigForTests();
});

describe("live streams", () => {
  it("a user may hold LIVE_MAX_STREAMS_PER_USER streams over all projects; the next is 429 with Retry-After until one closes", async () => {
    const [p1, p2] = [await freshProject(), await freshProject()];
    const held = [await connect(vic, p1), await connect(vic, p1), await connect(vic, p2)];
    expect(userStreams(vic.user.id)).toBe(3);
    const refused = await tryOpen(vic, p2);
    expectError(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.headers.get("X-RateLimit-Limit")).toBe("3");
    // Another user is not held back by it.
    await connect(cora, p2);
    await held[0]!.close();
    expect(userStreams(vic.user.id)).toBe(2);
    await connect(vic, p2);
  });

  it("a project may have LIVE_MAX_STREAMS_PER_PROJECT streams; the next is 429 even for a user with slots free", async () => {
    const id = await freshProject();
    for (const account of [ana, ana, ben, ben, vic]) await connect(account, id);
    const refused = await tryOpen(cora, id);
    expectError(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(refused.headers.get("X-RateLimit-Limit")).toBe("5");
    expect(userStreams(cora.user.id)).toBe(0);
  });
});

describe("presence", () => {
  it("belongs to an open stream: without one it is 409 and loads nothing; once the stream closes it is 409 again", async () => {
    const id = await freshProject();
    const base = `/api/projects/${id}/prd/live/presence`;
    expectError(await vic.client.post(base, { clientId: "no-stream-client", mode: "viewing" }), 409, "CONFLICT");
    expect(loadedLiveDoc(id)).toBeUndefined();
    const v = await connect(vic, id);
    const a = await connect(ana, id);
    expect((await v.presence({ mode: "viewing" })).status).toBe(200);
    // Another user's stream does not carry my presence, nor does another clientId of mine.
    expectError(await vic.client.post(base, { clientId: a.clientId, mode: "viewing" }), 409, "CONFLICT");
    expectError(await vic.client.post(base, { clientId: "vic-second-tab", mode: "viewing" }), 409, "CONFLICT");
    const from = a.events.length;
    await v.close();
    await a.waitFor((e) => e.type === "presence" && !e.clients.some((c: { clientId: string }) => c.clientId === v.clientId), 5000, from);
    expectError(await v.presence({ mode: "viewing" }), 409, "CONFLICT");
  });

  it("entries are at most one per open stream, and an awareness update over 4 KB is 413", async () => {
    const id = await freshProject();
    const clients = [await connect(ana, id), await connect(ana, id), await connect(ben, id), await connect(vic, id), await connect(cora, id)];
    for (const c of clients) expect((await c.presence({ mode: "viewing" })).status).toBe(200);
    for (let i = 0; i < 20; i++) {
      expectError(await ben.client.post(`/api/projects/${id}/prd/live/presence`, { clientId: `spare-client-${i}`, mode: "editing" }), 409, "CONFLICT");
    }
    const last = clients[0]!;
    await clients[1]!.presence({ mode: "editing" });
    const event = await last.waitFor((e) => e.type === "presence" && e.people.some((p: { mode: string }) => p.mode === "editing"));
    expect(event.clients).toHaveLength(5);
    const huge = new Uint8Array(4 * 1024 + 1);
    const tooBig = await clients[2]!.presence({ mode: "viewing", yClientId: 1, awareness: b64(huge) });
    expectError(tooBig, 413, "PAYLOAD_TOO_LARGE");
  });
});

/** An update that writes into a Yjs type of the client's document other than the editor's fragment. */
function foreignUpdate(client: LiveClient, write: (doc: Y.Doc) => void) {
  const before = Y.encodeStateVector(client.doc);
  write(client.doc);
  return b64(Y.encodeStateAsUpdate(client.doc, before));
}

describe("hostile updates", () => {
  it("an update into any root type but the editor's fragment is 400 and stored nowhere; new streams still open", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    const before = await storedUpdateCount(id);
    const big = "x".repeat(500 * 1024);
    const attempts = [
      foreignUpdate(a, (doc) => doc.getMap("notes").set("blob", big)),
      foreignUpdate(a, (doc) => doc.getMap("live").set("other", "the server's map")),
      foreignUpdate(a, (doc) => doc.getArray("list").insert(0, [1, 2, 3])),
      foreignUpdate(a, (doc) => doc.getText("side").insert(0, "beside the fragment")),
    ];
    for (const update of attempts) {
      const res = await ana.client.post(`/api/projects/${id}/prd/live/updates`, { clientId: a.clientId, update });
      expectError(res, 400, "VALIDATION_ERROR");
      expect(res.body.details[0].path).toBe("update");
    }
    expect(await storedUpdateCount(id)).toBe(before);
    const c = await connect(ben, id);
    const server = loadedLiveDoc(id)!.doc;
    expect([...server.share.keys()].sort()).toEqual(["default", "live"]);
    expect([...server.getMap("live").keys()]).toEqual(["epoch"]);
    expect(c.doc.getXmlFragment("default").toString()).toContain("A small PRD for the bounds of live editing.");
  });

  it("an update of more than LIVE_MAX_UPDATE_ITEMS items is 413 with the limit, and stores nothing", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    const before = await storedUpdateCount(id);
    const paragraph = a.fragment.get(0) as Y.XmlElement;
    a.doc.transact(() => {
      for (let i = 0; i <= LIVE_MAX_UPDATE_ITEMS; i++) paragraph.setAttribute(`k${i}`, "1");
    });
    const res = await a.send();
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(res.body.limit).toBe(LIVE_MAX_UPDATE_ITEMS);
    expect(await storedUpdateCount(id)).toBe(before);
  });

  it("many small map entries stop at LIVE_MAX_DOC_ITEMS items per document (413, here 50,000), and the document still opens", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    const element = a.fragment.get(0) as Y.XmlElement;
    const batch = LIVE_MAX_UPDATE_ITEMS - 10;
    let refused: Awaited<ReturnType<LiveClient["send"]>> | undefined;
    for (let round = 0; round * batch <= LIVE_MAX_DOC_ITEMS + batch && !refused; round++) {
      a.doc.transact(() => {
        for (let i = 0; i < batch; i++) element.setAttribute(`r${round}_${i}`, String(i));
      });
      const res = await a.send();
      if (res.status !== 200) refused = res;
    }
    expectError(refused!, 413, "PAYLOAD_TOO_LARGE");
    expect(refused!.body.limit).toBe(LIVE_MAX_DOC_ITEMS);
    expect(countItems(loadedLiveDoc(id)!.doc)).toBeLessThanOrEqual(LIVE_MAX_DOC_ITEMS);
    const c = await connect(ben, id);
    expect(c.whole[0]!.type).toBe("sync");
  });
});

describe("large documents", () => {
  it("a document of 6.5 MB opens for every new stream, its sync in parts of at most 64 KB", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    const chunk = "Lorem ipsum dolor sit amet. ".repeat(18_000); // ~500 KB
    for (let i = 0; i < 13; i++) {
      const p = new Y.XmlElement("paragraph");
      const t = new Y.XmlText();
      t.insert(0, chunk);
      p.insert(0, [t]);
      a.fragment.insert(a.fragment.length, [p]);
      const res = await a.send();
      expect(res.status, res.text).toBe(200);
    }
    const b = await connect(vic, id);
    const sync = b.whole[0]!;
    expect(sync.type).toBe("sync");
    const raw = b.events.slice(0, sync.parts);
    expect(sync.parts).toBeGreaterThan(100);
    expect(raw.map((e) => e.type)).toEqual(["sync", ...Array.from({ length: sync.parts - 1 }, () => "state")]);
    for (const e of raw) {
      expect(e.state.length).toBeLessThanOrEqual(LIVE_STATE_PART_CHARS);
      expect(JSON.stringify(e).length).toBeLessThan(LIVE_STATE_PART_CHARS + 2048);
    }
    expect(b.fragment.length).toBe(a.fragment.length);
    expect(Y.encodeStateVector(b.doc)).toEqual(Y.encodeStateVector(a.doc));
  });

  it("a reader that never reads: its response holds at most 256 KB plus one event, and it is dropped past 16 MB waiting", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    const path = `/api/projects/${id}/prd/live?clientId=slow-reader-client`;
    const slow = await remixHandler()(new Request(`${ORIGIN}${path}`, { headers: { Host: new URL(ORIGIN).host, Cookie: cookieOf(vic) } }), {
      ip: vic.client.ip,
    });
    expect(slow.status).toBe(200);
    await a.waitFor((e) => e.type === "presence" && e.clients.some((c: { clientId: string }) => c.clientId === "slow-reader-client"));
    const from = a.events.length;
    const text = "Slow readers hold nothing. ".repeat(15_000); // ~400 KB per update
    let sent = 0;
    for (let i = 0; i < 45 && userStreams(vic.user.id) > 0; i++) {
      const p = new Y.XmlElement("paragraph");
      const t = new Y.XmlText();
      t.insert(0, text);
      p.insert(0, [t]);
      a.fragment.insert(a.fragment.length, [p]);
      expect((await a.send()).status).toBe(200);
      a.fragment.delete(a.fragment.length - 1, 1);
      expect((await a.send()).status).toBe(200);
      sent += text.length;
    }
    // Dropped (its slot is free, the others saw it leave) after about 16 MB of base64 updates, not before.
    expect(userStreams(vic.user.id)).toBe(0);
    expect(sent).toBeGreaterThan(11 * 1024 * 1024);
    await a.waitFor((e) => e.type === "presence" && !e.clients.some((c: { clientId: string }) => c.clientId === "slow-reader-client"), 5000, from);
    // What the server had buffered for it: the sync and the first update or two, then the response ended.
    const body = await slow.text();
    expect(body.length).toBeLessThan(LIVE_STREAM_BUFFER_BYTES + 600 * 1024);
    const events = parseSse(body);
    expect(events[0]!.type).toBe("sync");
    expect(events.filter((e) => e.type === "update").length).toBeLessThanOrEqual(2);
  });
});
