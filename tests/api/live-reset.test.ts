import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { signedUpClient } from "../support/client";
import { blockIndex, LiveClient, textOf } from "../support/live";
import { pageText } from "../support/page";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";

/**
 * "Reset live document from the last saved version" (POST …/prd/live/reset
 * and the page /projects/:id/live-reset) and the bound on the live documents
 * held in memory (LIVE_MAX_DOCS, LIVE_MEMORY_MB; lowered for this file):
 * through the real routes, as owners, editors, viewers and strangers.
 */

process.env.LIVE_MAX_DOCS = "3";
process.env.LIVE_MEMORY_MB = "16";
const { resetConfigForTests } = await import("~/config.server");
resetConfigForTests();
const { dropLiveDocs } = await import("~/domain/live/live.server");
const { loadedLiveDoc, loadedLiveDocs } = await import("~/domain/live/live-docs.server");
const { appendUpdate, loadStored, storedUpdateCount } = await import("~/domain/live/store.server");
const { jsonToMarkdown, readLiveDoc } = await import("~/domain/live/document.server");
const { LIVE_MAX_UPDATE_ITEMS } = await import("~/domain/live/limits.server");

const PRD = "# Reset\n\n## Overview\n\nThe saved text of this PRD.\n\n## Goals\n\nNothing typed live survives a reset.\n";
const OVERVIEW = "The saved text of this PRD.";
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

let ana: Account; // organization owner
let ben: Account; // organization admin
let mia: Account; // member: creates her own project
let eddie: Account; // member, editor collaborator of ana's projects
let vic: Account; // viewer collaborator
let otto: Account; // another organization
const open: LiveClient[] = [];

async function freshProject(owner = ana, content = PRD) {
  const created = await owner.client.post("/api/projects", { name: `Reset ${Math.random().toString(36).slice(2, 8)}` });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  expect((await owner.client.post(`/api/projects/${id}/prd`, { content })).status).toBe(201);
  for (const [who, role] of [
    [eddie, "editor"],
    [vic, "viewer"],
  ] as const) {
    if (who !== owner) expect((await owner.client.post(`/api/projects/${id}/collaborators`, { email: who.email, role })).status).toBe(201);
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

function markdownOf(doc: Y.Doc) {
  const read = readLiveDoc(doc);
  if (!read.ok) throw new Error(read.reason);
  return jsonToMarkdown(read.json);
}

/** Types into the Overview paragraph and sends it (stored, not yet a version). */
async function typeLive(client: LiveClient, text: string) {
  textOf(client.fragment.get(blockIndex(client.fragment, OVERVIEW)) as Y.XmlElement).insert(0, text);
  const sent = await client.send();
  expect(sent.status, sent.text).toBe(200);
}

const versions = async (id: string) => (await ana.client.get(`/api/projects/${id}/prd/versions`)).body.versions as { number: number; source: string }[];
const reset = (account: Account, id: string) => account.client.post(`/api/projects/${id}/prd/live/reset`);

beforeAll(async () => {
  ana = await signedUpClient({ name: "Ana Owner" });
  await setPlan(ana.organization.id, "enterprise");
  const orgId = ana.organization.id;
  ben = await joinOrg(orgId, "admin", "Ben Admin");
  mia = await joinOrg(orgId, "member", "Mia Member");
  eddie = await joinOrg(orgId, "member", "Eddie Editor");
  vic = await joinOrg(orgId, "viewer", "Vic Viewer");
  otto = await signedUpClient({ name: "Otto Outsider" });
});

afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

afterAll(() => {
  dropLiveDocs();
  delete process.env.LIVE_MAX_DOCS;
  delete process.env.LIVE_MEMORY_MB;
  resetConfigForTests();
});

describe("reset live document from the last saved version", () => {
  it("an owner's reset ends the open streams, drops the stored state, and the next stream builds the saved version afresh", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    const b = await connect(eddie, id);
    await typeLive(a, "Typed live, never saved: ");
    const before = await versions(id);
    const res = await reset(ana, id);
    expect(res.status, res.text).toBe(200);
    const saved = (await ana.client.get(`/api/projects/${id}/prd`)).body.prd;
    expect(res.body).toEqual({ reset: true, versionId: saved.versionId, versionNumber: saved.versionNumber });
    await a.closed;
    await b.closed;
    expect(await loadStored(id)).toBeNull();
    expect(await storedUpdateCount(id)).toBe(0);
    expect(await versions(id)).toEqual(before);
    const c = await connect(eddie, id);
    expect(c.whole[0]!.epoch).not.toBe(a.whole[0]!.epoch);
    expect(markdownOf(c.doc)).toBe(PRD);
  });

  it("repairs a document stored before the bounds, with a 500 KB map beside the fragment", async () => {
    const id = await freshProject();
    await (await connect(ana, id)).close();
    dropLiveDocs();
    const hostile = new Y.Doc();
    hostile.getMap("notes").set("blob", "x".repeat(500 * 1024));
    await appendUpdate(id, Y.encodeStateAsUpdate(hostile), { clientId: "old-client", userId: ana.user.id, markDirty: true });
    const stuck = await connect(vic, id);
    expect(stuck.whole[0]!.parts).toBeGreaterThan(1);
    expect([...loadedLiveDoc(id)!.doc.share.keys()]).toContain("notes");
    const res = await reset(ben, id);
    expect(res.status, res.text).toBe(200);
    await stuck.closed;
    const fresh = await connect(vic, id);
    expect([...loadedLiveDoc(id)!.doc.share.keys()].sort()).toEqual(["default", "live"]);
    expect(fresh.whole[0]!.parts).toBe(1);
    expect(markdownOf(fresh.doc)).toBe(PRD);
  });

  it("is refused to an editor collaborator and a viewer (403) and to another organization (404); nothing changes", async () => {
    const id = await freshProject();
    const a = await connect(ana, id);
    await typeLive(a, "Kept: ");
    for (const who of [eddie, vic]) expectError(await reset(who, id), 403, "FORBIDDEN");
    expectError(await reset(otto, id), 404, "NOT_FOUND");
    expectError(await otto.client.post("/api/projects/no-such-project/prd/live/reset"), 404, "NOT_FOUND");
    const b = await connect(eddie, id);
    expect(b.whole[0]!.epoch).toBe(a.whole[0]!.epoch);
    expect(markdownOf(b.doc)).toBe(PRD.replace(OVERVIEW, `Kept: ${OVERVIEW}`));
    // A member resets the project she created.
    const hers = await freshProject(mia);
    expect((await reset(mia, hers)).status).toBe(200);
    expectError(await reset(mia, id), 403, "FORBIDDEN");
  });

  it("the page: a link for owners only, a confirmation step, then a plain form post", async () => {
    const id = await freshProject();
    const page = await ana.client.get(`/projects/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/projects/${id}/live-reset"`);
    expect(pageText(page)).toContain("Reset live document from the last saved version");
    expect((await eddie.client.get(`/projects/${id}`)).text).not.toContain("/live-reset");
    expect((await eddie.client.get(`/projects/${id}/live-reset`)).status).toBe(403);
    expect((await vic.client.get(`/projects/${id}/live-reset`)).status).toBe(403);
    expect((await otto.client.get(`/projects/${id}/live-reset`)).status).toBe(404);
    const confirm = await ana.client.get(`/projects/${id}/live-reset`);
    expect(confirm.status).toBe(200);
    expect(pageText(confirm)).toContain("unsaved live changes are discarded");
    const a = await connect(eddie, id);
    const path = `/projects/${id}/live-reset`;
    const unticked = await ana.client.call("POST", path, { body: new URLSearchParams([["intent", "reset"]]), headers: FORM });
    expect(unticked.status).toBe(400);
    expect(pageText(unticked)).toContain("Tick the box to confirm");
    const refused = await eddie.client.call("POST", path, {
      body: new URLSearchParams([
        ["intent", "reset"],
        ["confirm", "yes"],
      ]),
      headers: FORM,
    });
    expect(refused.status).toBe(403);
    const done = await ana.client.call("POST", path, {
      body: new URLSearchParams([
        ["intent", "reset"],
        ["confirm", "yes"],
      ]),
      headers: FORM,
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/projects/${id}`);
    await a.closed;
    expect(pageText(await ana.client.get(`/projects/${id}`))).toContain("The live document was rebuilt from version 1.");
  });
});

describe("live documents held in memory", () => {
  it("at most LIVE_MAX_DOCS: another evicts the least recently used one nobody follows, its unsaved edits saved as a version first", async () => {
    dropLiveDocs();
    const [p1, p2, p3, p4] = [await freshProject(), await freshProject(), await freshProject(), await freshProject()];
    const first = await connect(ana, p1);
    await typeLive(first, "Saved on eviction: ");
    await first.close();
    for (const id of [p2, p3]) await (await connect(ben, id)).close();
    expect(loadedLiveDocs()).toHaveLength(3);
    await connect(vic, p4);
    expect(loadedLiveDocs()).toHaveLength(3);
    expect(loadedLiveDoc(p1)).toBeUndefined();
    expect((await versions(p1))[0]).toMatchObject({ number: 2, source: "live" });
    const again = await connect(vic, p1);
    expect(markdownOf(again.doc)).toBe(PRD.replace(OVERVIEW, `Saved on eviction: ${OVERVIEW}`));
    expect(loadedLiveDoc(p2)).toBeUndefined();
  });

  it("when every document held is followed, another is refused with 429 and Retry-After until one is free", async () => {
    dropLiveDocs();
    const ids = [await freshProject(), await freshProject(), await freshProject(), await freshProject()];
    const held = [await connect(ana, ids[0]!), await connect(ben, ids[1]!), await connect(eddie, ids[2]!)];
    const client = new LiveClient(vic, ids[3]!);
    open.push(client);
    const refused = await client.open();
    expectError(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(loadedLiveDoc(ids[3]!)).toBeUndefined();
    await held[0]!.close();
    await connect(vic, ids[3]!);
    expect(loadedLiveDoc(ids[0]!)).toBeUndefined();
  });

  it("documents estimated past LIVE_MEMORY_MB leave memory too, however few", async () => {
    dropLiveDocs();
    const big = await freshProject();
    const a = await connect(ana, big);
    const element = a.fragment.get(0) as Y.XmlElement;
    for (let round = 0; round < 3; round++) {
      a.doc.transact(() => {
        for (let i = 0; i < LIVE_MAX_UPDATE_ITEMS - 10; i++) element.setAttribute(`m${round}_${i}`, "1");
      });
      expect((await a.send()).status).toBe(200);
    }
    await a.close();
    expect(loadedLiveDocs()).toHaveLength(1);
    const small = await freshProject();
    await connect(vic, small);
    expect(loadedLiveDoc(big)).toBeUndefined();
    expect(loadedLiveDoc(small)).toBeDefined();
  });
});
