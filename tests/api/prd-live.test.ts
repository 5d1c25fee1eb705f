import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as Y from "yjs";
import { Awareness, encodeAwarenessUpdate } from "y-protocols/awareness";
import * as decoding from "lib0/decoding";
import { signedUpClient } from "../support/client";
import { serveApp } from "../support/serve";
import { b64, blockIndex, LiveClient, textOf, unb64 } from "../support/live";
import { type Account, expectError, joinOrg } from "../support/org";

/**
 * Real-time co-editing of a PRD through the real routes
 * (docs/design/live-editing.md): browser editors simulated as plain Y.Docs
 * that edit the "default" XmlFragment, read GET …/prd/live as SSE and post
 * their updates and presence. LiteFS is simulated by its mount layout, as in
 * tests/api/litefs.test.ts: `${LITEFS_DIR}/.primary` marks a replica.
 */

const litefsDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-live-litefs-"));
process.env.LITEFS_DIR = litefsDir;
const { resetConfigForTests } = await import("~/config.server");
resetConfigForTests();
const { dropLiveDocs, flushLiveCheckpoints, openLive, stopLive } = await import("~/domain/live/live.server");
const { storedUpdateCount } = await import("~/domain/live/store.server");
const { jsonToMarkdown, readLiveDoc } = await import("~/domain/live/document.server");

const PRD = fs.readFileSync("tests/fixtures/calibration/01-dental-appointment-reminders.md", "utf8");
const OVERVIEW = "SmileSync sends SMS and email reminders";
const PROBLEM = "In the 12 months to March 2026";

let ana: Account; // owner: edits everything
let ben: Account; // admin: edits everything
let vic: Account; // viewer, collaborator "viewer"
let cora: Account; // viewer, collaborator "commenter"
let otto: Account; // another organization
let projectId: string;
const open: LiveClient[] = [];

/** The Markdown of a client's document (as the server would save it). */
function markdownOf(doc: Y.Doc) {
  const read = readLiveDoc(doc);
  if (!read.ok) throw new Error(read.reason);
  return jsonToMarkdown(read.json);
}

async function freshProject(content = PRD) {
  const created = await ana.client.post("/api/projects", { name: `Live ${Math.random().toString(36).slice(2, 8)}` });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  const prd = await ana.client.post(`/api/projects/${id}/prd`, { content });
  expect(prd.status, prd.text).toBe(201);
  for (const [who, role] of [
    [vic, "viewer"],
    [cora, "commenter"],
  ] as const) {
    const added = await ana.client.post(`/api/projects/${id}/collaborators`, { email: who.email, role });
    expect(added.status, added.text).toBe(201);
  }
  return id;
}

async function connect(account: Account, id = projectId) {
  const client = new LiveClient(account, id);
  open.push(client);
  const res = await client.open();
  expect(res.status).toBe(200);
  await client.waitFor((e) => e.type === "sync");
  return client;
}

const versions = async (id: string) => (await ana.client.get(`/api/projects/${id}/prd/versions`)).body.versions as { number: number; source: string }[];
const savedPrd = async (id: string) =>
  (await ana.client.get(`/api/projects/${id}/prd`)).body.prd as { content: string; versionId: string; versionNumber: number };

beforeAll(async () => {
  ana = await signedUpClient({ name: "Ana Author" });
  const orgId = ana.organization.id;
  ben = await joinOrg(orgId, "admin", "Ben Builder");
  vic = await joinOrg(orgId, "viewer", "Vic Viewer");
  cora = await joinOrg(orgId, "viewer", "Cora Commenter");
  otto = await signedUpClient({ name: "Otto Outsider" });
  projectId = await freshProject();
});

afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

afterAll(() => {
  fs.rmSync(path.join(litefsDir, ".primary"), { force: true });
  dropLiveDocs();
  delete process.env.LITEFS_DIR;
  resetConfigForTests();
  fs.rmSync(litefsDir, { recursive: true, force: true });
});

describe("two editors", () => {
  it("editing the same paragraph at the same time converge to the same text with both edits", async () => {
    const a = await connect(ana);
    const b = await connect(ben);
    expect(markdownOf(a.doc)).toBe(PRD);
    expect(a.events[0]).toMatchObject({ type: "sync", canEdit: true });
    // Both type into the Overview paragraph before either has seen the other's edit.
    const i = blockIndex(a.fragment, OVERVIEW);
    textOf(a.fragment.get(i) as Y.XmlElement).insert(0, "Ana typed this. ");
    textOf(b.fragment.get(i) as Y.XmlElement).insert(OVERVIEW.length, " (Ben typed this)");
    const [sentA, sentB] = await Promise.all([a.send(), b.send()]);
    expect(sentA.status, sentA.text).toBe(200);
    expect(sentA.body).toEqual({ accepted: true });
    expect(sentB.status, sentB.text).toBe(200);
    // Each gets the other's update, never its own back.
    await a.waitFor((e) => e.type === "update" && e.clientId === b.clientId);
    await b.waitFor((e) => e.type === "update" && e.clientId === a.clientId);
    expect(a.events.some((e) => e.type === "update" && e.clientId === a.clientId)).toBe(false);
    const text = markdownOf(a.doc);
    expect(markdownOf(b.doc)).toBe(text);
    expect(Y.encodeStateVector(a.doc)).toEqual(Y.encodeStateVector(b.doc));
    expect(text).toContain(`Ana typed this. ${OVERVIEW} (Ben typed this)`);
    expect(text).toBe(PRD.replace(OVERVIEW, `Ana typed this. ${OVERVIEW} (Ben typed this)`));
    // The server holds the same document: a third client's sync, and openLive.
    const c = await connect(vic);
    expect(markdownOf(c.doc)).toBe(text);
    const server = new Y.Doc();
    Y.applyUpdate(server, unb64((await openLive(await actorOf(ana), projectId)).state));
    expect(markdownOf(server)).toBe(text);
  });

  it("saves a version on demand that holds the edits and keeps every untouched line byte for byte", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    const before = await versions(id);
    const i = blockIndex(a.fragment, PROBLEM);
    textOf(a.fragment.get(i) as Y.XmlElement).insert(PROBLEM.length, " (audited)");
    expect((await a.send()).status).toBe(200);
    const saved = await ana.client.post(`/api/projects/${id}/prd/live/versions`);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ saved: true, versionNumber: before[0]!.number + 1 });
    const prd = await savedPrd(id);
    expect(prd.content).toBe(PRD.replace(PROBLEM, `${PROBLEM} (audited)`));
    expect(prd.versionId).toBe(saved.body.versionId);
    const after = await versions(id);
    expect(after[0]).toMatchObject({ number: before[0]!.number + 1, source: "live" });
    // A version checkpoint folds the stored updates into the snapshot.
    expect(await storedUpdateCount(id)).toBe(0);
    await a.waitFor((e) => e.type === "version" && e.versionId === prd.versionId);
    // Nothing new: nothing saved.
    const again = await ana.client.post(`/api/projects/${id}/prd/live/versions`);
    expect(again.body).toEqual({ saved: false, versionId: prd.versionId, versionNumber: prd.versionNumber });
  });

  it("saves a version after a pause in typing (LIVE_IDLE_MS), as the last editor", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    const b = await connect(ben, id);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const i = blockIndex(b.fragment, OVERVIEW);
      textOf(b.fragment.get(i) as Y.XmlElement).insert(0, "Idle: ");
      expect((await b.send()).status).toBe(200);
      vi.advanceTimersByTime(9_000);
      expect((await versions(id)).length).toBe(1);
      vi.advanceTimersByTime(1_000);
    } finally {
      vi.useRealTimers();
    }
    const version = await a.waitFor((e) => e.type === "version");
    const prd = await savedPrd(id);
    expect(version).toMatchObject({ versionId: prd.versionId, versionNumber: 2 });
    expect(prd.content).toBe(PRD.replace(OVERVIEW, `Idle: ${OVERVIEW}`));
    const list = (await ana.client.get(`/api/projects/${id}/prd/versions`)).body.versions;
    expect(list[0]).toMatchObject({ source: "live", createdBy: { name: "Ben Builder" } });
  });
});

describe("who may do what", () => {
  it("a viewer and a commenter collaborator follow the stream and see edits, but cannot send updates or save versions (403)", async () => {
    const a = await connect(ana);
    for (const reader of [vic, cora]) {
      const r = await connect(reader);
      expect(r.events[0]).toMatchObject({ type: "sync", canEdit: false });
      const before = await storedUpdateCount(projectId);
      textOf(r.fragment.get(0) as Y.XmlElement).insert(0, "Sneaky ");
      expectError(await r.send(), 403, "FORBIDDEN");
      expectError(await reader.client.post(`/api/projects/${projectId}/prd/live/versions`), 403, "FORBIDDEN");
      expect(await storedUpdateCount(projectId)).toBe(before);
      // Editing mode is for those who may edit: shown as viewing.
      const seen = await r.presence({ mode: "editing" });
      expect(seen.status, seen.text).toBe(200);
      expect(seen.body.people).toContainEqual(expect.objectContaining({ userId: reader.user.id, mode: "viewing" }));
      // An edit by the owner reaches them.
      const from = r.events.length;
      textOf(a.fragment.get(0) as Y.XmlElement).insert(0, "Live ");
      expect((await a.send()).status).toBe(200);
      await r.waitFor((e) => e.type === "update" && e.clientId === a.clientId, 5000, from);
    }
  });

  it("a registered stranger from another organization gets 404 on all four routes", async () => {
    const stranger = new LiveClient(otto, projectId);
    expectError(await stranger.open(), 404, "NOT_FOUND");
    const base = `/api/projects/${projectId}/prd/live`;
    const update = new Y.Doc();
    update.getXmlFragment("default").insert(0, [new Y.XmlText("x")]);
    expectError(await otto.client.post(`${base}/updates`, { clientId: stranger.clientId, update: b64(Y.encodeStateAsUpdate(update)) }), 404, "NOT_FOUND");
    expectError(await otto.client.post(`${base}/presence`, { clientId: stranger.clientId, mode: "viewing" }), 404, "NOT_FOUND");
    expectError(await otto.client.post(`${base}/versions`), 404, "NOT_FOUND");
  });

  it("answers a HEAD without subscribing", async () => {
    const projectId = await freshProject();
    const a = await connect(ana, projectId);
    const from = a.events.length;
    const head = await ben.client.call("HEAD", `/api/projects/${projectId}/prd/live?clientId=head-client-1`);
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Type")).toContain("text/event-stream");
    const strangerHead = await otto.client.call("HEAD", `/api/projects/${projectId}/prd/live?clientId=head-client-2`);
    expect(strangerHead.status).toBe(404);
    // Nobody joined: a later presence event (events arrive in order) lists no HEAD client.
    const sentinelStream = new LiveClient(ben, projectId, "sentinel-client");
    open.push(sentinelStream);
    expect((await sentinelStream.open()).status).toBe(200);
    const sentinel = await a.waitFor((e) => e.type === "presence" && e.clients.some((c: { clientId: string }) => c.clientId === "sentinel-client"), 5000, from);
    expect(sentinel.clients.map((c: { clientId: string }) => c.clientId)).not.toContain("head-client-1");
    expect(
      a.events.slice(from).filter((e) => e.type === "presence" && e.clients.some((c: { clientId: string }) => c.clientId === "head-client-1")),
    ).toHaveLength(0);
  });

  it("refuses a clientId that is not 8–64 URL-safe characters", async () => {
    expectError(await ana.client.post(`/api/projects/${projectId}/prd/live/presence`, { clientId: "short", mode: "viewing" }), 400, "VALIDATION_ERROR");
    expectError(await ana.client.get(`/api/projects/${projectId}/prd/live?clientId=has%20space%20in%20it`), 400, "VALIDATION_ERROR");
  });
});

describe("hostile updates", () => {
  it("refuses garbage that Yjs cannot read (400, field update) and stores nothing", async () => {
    const a = await connect(ana);
    const before = await storedUpdateCount(projectId);
    const base = `/api/projects/${projectId}/prd/live/updates`;
    for (const update of [b64(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9])), b64(new Uint8Array(64).fill(255)), "not base64 at all!"]) {
      const res = await ana.client.post(base, { clientId: a.clientId, update });
      expectError(res, 400, "VALIDATION_ERROR");
      expect(res.body.details[0].path).toBe("update");
    }
    const tooBig = await ana.client.post(base, { clientId: a.clientId, update: b64(new Uint8Array(512 * 1024 + 1)) });
    expectError(tooBig, 413, "PAYLOAD_TOO_LARGE");
    expect(tooBig.body.limit).toBe(512 * 1024);
    expect(await storedUpdateCount(projectId)).toBe(before);
    expect(a.events.filter((e) => e.type === "update")).toHaveLength(0);
  });

  it("refuses an update that decodes but cannot be applied, and the document stays as stored", async () => {
    const a = await connect(ana);
    const before = await storedUpdateCount(projectId);
    const state = markdownOf(a.doc);
    // Corrupt a real update until Yjs reads it but cannot integrate it (found deterministically).
    const real = new Y.Doc();
    const p = new Y.XmlElement("paragraph");
    const t = new Y.XmlText();
    t.insert(0, "hello world");
    p.insert(0, [t]);
    real.getXmlFragment("default").insert(0, [p]);
    const valid = Y.encodeStateAsUpdate(real);
    const broken = findUnapplicable(valid);
    const res = await ana.client.post(`/api/projects/${projectId}/prd/live/updates`, { clientId: a.clientId, update: b64(broken) });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(await storedUpdateCount(projectId)).toBe(before);
    const c = await connect(ben);
    expect(markdownOf(c.doc)).toBe(state);
  });

  it("a schema-breaking update leads to a reset to the saved PRD, and no bad version is saved", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    const b = await connect(ben, id);
    const before = await versions(id);
    // Text straight in the document (blocks belong there) and an element no editor knows.
    a.fragment.insert(0, [new Y.XmlText("loose text")]);
    a.fragment.insert(1, [new Y.XmlElement("script")]);
    expect((await a.send()).status).toBe(200);
    await b.waitFor((e) => e.type === "update" && e.clientId === a.clientId);
    const saved = await ana.client.post(`/api/projects/${id}/prd/live/versions`);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.saved).toBe(false);
    const reset = await b.waitFor((e) => e.type === "reset");
    await a.waitFor((e) => e.type === "reset");
    expect(reset.versionId).toBe((await savedPrd(id)).versionId);
    // The replaced document has a new identity: a client that missed the reset replaces its document when it reconnects.
    expect(reset.epoch).not.toBe(b.events[0]!.epoch);
    expect(await versions(id)).toEqual(before);
    expect((await savedPrd(id)).content).toBe(PRD);
    expect(markdownOf(a.doc)).toBe(PRD);
    expect(markdownOf(b.doc)).toBe(PRD);
    // After the reset, editing goes on from the new document.
    textOf(b.fragment.get(blockIndex(b.fragment, OVERVIEW)) as Y.XmlElement).insert(0, "Again: ");
    expect((await b.send()).status).toBe(200);
    await a.waitFor((e) => e.type === "update" && e.clientId === b.clientId);
    expect(markdownOf(a.doc)).toBe(PRD.replace(OVERVIEW, `Again: ${OVERVIEW}`));
    const c = await connect(vic, id);
    expect(c.events[0]).toMatchObject({ type: "sync", epoch: reset.epoch });
  });

  it("refuses an update that changes the document's identity (epoch)", async () => {
    const a = await connect(ana);
    const before = await storedUpdateCount(projectId);
    a.doc.getMap("live").set("epoch", "forged");
    const res = await a.send();
    expectError(res, 400, "VALIDATION_ERROR");
    expect(await storedUpdateCount(projectId)).toBe(before);
    const c = await connect(ben);
    expect(c.events[0]!.epoch).toBe(a.events[0]!.epoch);
  });
});

/** Flips bytes of `valid` (seeded, so the same every run) until Yjs decodes it but applying it throws. */
function findUnapplicable(valid: Uint8Array) {
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < 200_000; i++) {
    const b = new Uint8Array(valid);
    for (let k = 0; k < 1 + (i % 3); k++) b[Math.floor(random() * b.length)] = Math.floor(random() * 256);
    try {
      Y.decodeUpdate(b);
    } catch {
      continue;
    }
    const d = new Y.Doc();
    d.getXmlFragment("default");
    try {
      Y.applyUpdate(d, b);
    } catch {
      return b;
    }
  }
  throw new Error("no unapplicable update found");
}

/** The actor of an account, as the API boundary makes it from the session cookie. */
async function actorOf(account: Account) {
  const { authenticate } = await import("~/http/api/authenticate.server");
  const cookie = [...account.client.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const { actor } = await authenticate(new Request("http://localhost:3000/", { headers: { Cookie: cookie } }));
  if (!actor) throw new Error("no actor");
  return actor;
}

describe("presence", () => {
  it("relays a client's cursor with the account's name and colour, whatever name it claims", async () => {
    const a = await connect(ana);
    const b = await connect(ben);
    const awareness = new Awareness(b.doc);
    awareness.setLocalState({ user: { name: "The CEO", color: "#000000" }, cursor: { anchor: 1, head: 4 } });
    // A second entry for somebody else's Yjs client: dropped.
    const other = new Awareness(new Y.Doc());
    other.setLocalState({ user: { name: "Ana Author" }, cursor: null });
    const both = concatAwareness(encodeAwarenessUpdate(awareness, [b.doc.clientID]), encodeAwarenessUpdate(other, [other.clientID]));
    const from = a.events.length;
    const res = await b.presence({ mode: "editing", yClientId: b.doc.clientID, awareness: b64(both) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.people).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ userId: ben.user.id, name: "Ben Builder", mode: "editing" }),
        expect.objectContaining({ userId: ana.user.id, name: "Ana Author", mode: "viewing" }),
      ]),
    );
    const event = await a.waitFor((e) => e.type === "presence" && typeof e.awareness === "string", 5000, from);
    const states = decodeAwareness(unb64(event.awareness));
    expect(states).toHaveLength(1);
    expect(states[0]!.clientID).toBe(b.doc.clientID);
    expect(states[0]!.state.user).toEqual({ name: "Ben Builder", color: expect.stringMatching(/^#[0-9a-f]{6}$/) });
    expect(states[0]!.state.cursor).toEqual({ anchor: 1, head: 4 });
    expect(event.people).toContainEqual(expect.objectContaining({ userId: ben.user.id, mode: "editing" }));
    // Ben leaves: the others hear it, and his cursor is removed.
    const left = a.events.length;
    await b.close();
    const gone = await a.waitFor((e) => e.type === "presence" && !e.people.some((p: { userId: string }) => p.userId === ben.user.id), 5000, left);
    expect(decodeAwareness(unb64(gone.awareness))[0]).toMatchObject({ clientID: b.doc.clientID, state: null });
    awareness.destroy();
    other.destroy();
  });

  it("refuses an awareness update that is not one (400)", async () => {
    const res = await ana.client.post(`/api/projects/${projectId}/prd/live/presence`, {
      clientId: "presence-client-1",
      mode: "viewing",
      yClientId: 5,
      awareness: b64(new Uint8Array([200, 1, 2, 3])),
    });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(res.body.details[0].path).toBe("awareness");
  });
});

function concatAwareness(...updates: Uint8Array[]) {
  const entries = updates.flatMap((u) => decodeRaw(u));
  const out: number[] = [];
  const varUint = (n: number) => {
    while (n > 127) {
      out.push((n & 127) | 128);
      n = Math.floor(n / 128);
    }
    out.push(n);
  };
  varUint(entries.length);
  for (const e of entries) {
    varUint(e.clientID);
    varUint(e.clock);
    const bytes = new TextEncoder().encode(e.json);
    varUint(bytes.length);
    out.push(...bytes);
  }
  return new Uint8Array(out);
}

function decodeRaw(update: Uint8Array) {
  const decoder = decoding.createDecoder(update);
  const n = decoding.readVarUint(decoder);
  return Array.from({ length: n }, () => ({
    clientID: decoding.readVarUint(decoder),
    clock: decoding.readVarUint(decoder),
    json: decoding.readVarString(decoder),
  }));
}

function decodeAwareness(update: Uint8Array) {
  return decodeRaw(update).map((e) => ({ clientID: e.clientID, clock: e.clock, state: JSON.parse(e.json) }));
}

describe("over a real socket", () => {
  it("a browser that goes away ends its subscription: the others see it leave", async () => {
    const server = await serveApp();
    try {
      const a = await connect(ana);
      const controller = new AbortController();
      const cookie = [...ben.client.jar].map(([k, v]) => `${k}=${v}`).join("; ");
      const res = await fetch(`${server.url}/api/projects/${projectId}/prd/live?clientId=socket-client-1`, {
        headers: { Cookie: cookie },
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toContain("text/event-stream");
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      while (!text.includes('"type":"sync"')) text += (await reader.read()).value ?? "";
      await a.waitFor((e) => e.type === "presence" && e.people.some((p: { userId: string }) => p.userId === ben.user.id));
      const from = a.events.length;
      controller.abort();
      await a.waitFor((e) => e.type === "presence" && !e.people.some((p: { userId: string }) => p.userId === ben.user.id), 5000, from);
    } finally {
      server.server.closeAllConnections();
      await server.close();
    }
  });
});

describe("durability", () => {
  it("keeps every acknowledged edit across a restart (the documents in memory dropped, reloaded from SQLite), compacting as it goes", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    const i = blockIndex(a.fragment, OVERVIEW);
    const text = textOf(a.fragment.get(i) as Y.XmlElement);
    const typed = "Typed one keystroke at a time. ";
    for (let k = 0; k < typed.length * 7; k++) {
      text.insert(k, typed[k % typed.length]!);
      const res = await a.send();
      expect(res.status, res.text).toBe(200);
    }
    // 217 updates: folded into the snapshot after 200.
    expect(await storedUpdateCount(id)).toBeLessThan(typed.length * 7);
    const expected = markdownOf(a.doc);
    await a.close();
    dropLiveDocs();
    const b = await connect(ben, id);
    expect(markdownOf(b.doc)).toBe(expected);
    expect(expected).toContain(`${typed.repeat(7)}${OVERVIEW}`);
    // The same document, not a new seed: same identity, and the first client's items are the server's.
    expect(b.events[0]!.epoch).toBe(a.events[0]!.epoch);
    expect(Y.encodeStateVector(b.doc)).toEqual(Y.encodeStateVector(a.doc));
    // And the edits are saved as a version from the reloaded document.
    expect(await flushLiveCheckpoints()).toBe(1);
    expect((await savedPrd(id)).content).toBe(expected);
  });
});

describe("graceful shutdown", () => {
  it("saves unsaved live edits as a version and ends the streams", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    textOf(a.fragment.get(blockIndex(a.fragment, OVERVIEW)) as Y.XmlElement).insert(0, "Before shutdown: ");
    expect((await a.send()).status).toBe(200);
    await stopLive();
    expect((await savedPrd(id)).content).toBe(PRD.replace(OVERVIEW, `Before shutdown: ${OVERVIEW}`));
    expect((await versions(id))[0]).toMatchObject({ number: 2, source: "live" });
    await a.closed;
  });
});

describe("saves made elsewhere", () => {
  it("an API save of the PRD reaches a live editor as an update, then a version", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    const changed = PRD.replace(PROBLEM, "Over the 12 months to March 2026");
    const put = await ben.client.post(`/api/projects/${id}/prd`, { content: changed });
    expect(put.status, put.text).toBe(200);
    await a.waitFor((e) => e.type === "update" && e.clientId === "server");
    const version = await a.waitFor((e) => e.type === "version");
    expect(version).toMatchObject({ versionId: put.body.prd.versionId, versionNumber: put.body.prd.versionNumber });
    expect(markdownOf(a.doc)).toBe(changed);
    // Nothing live to save: the saved PRD stays as the API wrote it.
    expect(await flushLiveCheckpoints()).toBe(0);
    expect((await savedPrd(id)).content).toBe(changed);
  });

  it("merges a save made elsewhere with unsaved live edits, keeping both", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    textOf(a.fragment.get(blockIndex(a.fragment, OVERVIEW)) as Y.XmlElement).insert(0, "Live: ");
    expect((await a.send()).status).toBe(200);
    const changed = PRD.replace(PROBLEM, "Over the 12 months to March 2026");
    const put = await ben.client.post(`/api/projects/${id}/prd`, { content: changed });
    expect(put.status, put.text).toBe(200);
    await a.waitFor((e) => e.type === "update" && e.clientId === "server");
    const both = changed.replace(OVERVIEW, `Live: ${OVERVIEW}`);
    expect(markdownOf(a.doc)).toBe(both);
    expect(await flushLiveCheckpoints()).toBe(1);
    expect((await savedPrd(id)).content).toBe(both);
  });

  it("a document stored while the PRD was saved elsewhere is brought in line when it is opened again", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    await a.close();
    dropLiveDocs();
    const changed = PRD.replace(PROBLEM, "Over the 12 months to March 2026");
    expect((await ben.client.post(`/api/projects/${id}/prd`, { content: changed })).status).toBe(200);
    const b = await connect(ben, id);
    expect(markdownOf(b.doc)).toBe(changed);
    expect(b.events[0]).toMatchObject({ type: "sync", versionId: (await savedPrd(id)).versionId });
  });
});

describe("LiteFS", () => {
  afterEach(() => fs.rmSync(path.join(litefsDir, ".primary"), { force: true }));

  it("replays the stream and the posts to the primary from a replica", async () => {
    fs.writeFileSync(path.join(litefsDir, ".primary"), "machine-b\n");
    const replica = new LiveClient(ana, projectId);
    const res = await replica.open();
    expect(res.status).toBe(409);
    expect(res.headers.get("fly-replay")).toBe("instance=machine-b");
    const base = `/api/projects/${projectId}/prd/live`;
    for (const [route, body] of [
      ["updates", { clientId: replica.clientId, update: b64(new Uint8Array([0, 0])) }],
      ["presence", { clientId: replica.clientId, mode: "viewing" }],
      ["versions", {}],
    ] as const) {
      const post = await ana.client.post(`${base}/${route}`, body);
      expect(post.status, route).toBe(409);
      expect(post.headers.get("fly-replay")).toBe("instance=machine-b");
    }
  });
});
