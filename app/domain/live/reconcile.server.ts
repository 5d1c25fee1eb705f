import { diff3Merge } from "node-diff3";
import * as Y from "yjs";
import { logger } from "~/utils/log.server";
import { currentPrd } from "../prd/prd.server";
import { applyNode, epochOf, jsonToMarkdown, markdownToJson, markdownToNode, readLiveDoc, yDocFromJson } from "./document.server";
import type { LiveDoc } from "./live-doc.server";
import { writeSnapshot } from "./store.server";

/**
 * Keeping the live document and the saved PRD together: a save made
 * elsewhere (API, form, AI, restore) is merged into the live document as a
 * Yjs diff, a document no editor could have made is reset to the saved PRD,
 * and snapshots fold the stored updates. Called inside `LiveDoc.run` (or
 * before the document is published), so nothing else changes the document
 * between the steps; the steps give the event loop back in between
 * (docs/design/live-editing.md, "Event loop").
 */

export const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");

/** Lets timers, I/O and other requests run before going on. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const lines = (text: string) => text.replace(/\r\n?/g, "\n").split("\n");

/**
 * Three-way line merge of the live document (`live`) and a save made
 * elsewhere (`saved`), both from `base`: each side's changes are kept, and
 * where both changed the same lines the live text wins (people are typing
 * it; the other save stays in the version history).
 */
export function mergeKeepingLive(base: string, live: string, saved: string): string {
  const out: string[] = [];
  for (const region of diff3Merge(lines(live), lines(base), lines(saved), { excludeFalseConflicts: true })) {
    if ("ok" in region && region.ok) out.push(...region.ok);
    else if ("conflict" in region && region.conflict) out.push(...region.conflict.a);
  }
  return out.join("\n");
}

/** Writes the document as the new snapshot and deletes the update rows it holds. */
export async function compact(live: LiveDoc) {
  const state = Y.encodeStateAsUpdate(live.doc);
  await writeSnapshot(live.projectId, state, { versionId: live.versionId, dirty: live.dirty, upToId: live.lastRowId });
  live.rows = 0;
  live.bytes = state.byteLength;
}

/**
 * Replaces the live document with the saved PRD (the last good Markdown),
 * stores it and tells every subscriber to replace theirs (`reset`). For a
 * document that no longer converts to a valid editor document.
 */
export async function resetLive(live: LiveDoc, reason: string) {
  const current = await currentPrd(live.projectId);
  const content = current?.content ?? "";
  const json = markdownToJson(content);
  await nextTurn();
  const doc = yDocFromJson(json);
  const state = Y.encodeStateAsUpdate(doc);
  await writeSnapshot(live.projectId, state, { versionId: current?.versionId ?? null, dirty: false });
  const old = live.doc;
  live.doc = doc;
  old.destroy();
  live.versionId = current?.versionId ?? null;
  live.baseMarkdown = content;
  live.dirty = false;
  live.firstDirtyAt = null;
  live.rows = 0;
  live.bytes = state.byteLength;
  live.seq++;
  logger.warn("[live] the live document was reset to the saved PRD", { projectId: live.projectId, reason: reason.slice(0, 300) });
  live.broadcastReset(toBase64(state), { epoch: epochOf(doc), versionId: live.versionId });
}

/**
 * Brings the live document in line with the PRD as saved now, when a save
 * made elsewhere moved it past the version the document last matched. An
 * unchanged live document takes the saved text; one with unsaved edits is
 * merged three-way with it (mergeKeepingLive) and stays dirty, so the next
 * checkpoint saves the merge. The change goes to every subscriber as an
 * ordinary Yjs update (diff-based: untouched blocks keep their items).
 * Returns whether anything was done.
 */
export async function reconcile(live: LiveDoc, current?: Awaited<ReturnType<typeof currentPrd>>): Promise<boolean> {
  const saved = current === undefined ? await currentPrd(live.projectId) : current;
  const versionId = saved?.versionId ?? null;
  if (versionId === live.versionId) return false;
  const content = saved?.content ?? "";
  let target = content;
  if (live.dirty) {
    const read = readLiveDoc(live.doc);
    if (!read.ok) {
      await resetLive(live, `invalid document when a save arrived: ${read.reason}`);
      return true;
    }
    await nextTurn();
    const mine = jsonToMarkdown(read.json);
    if (mine !== live.baseMarkdown) target = mergeKeepingLive(live.baseMarkdown, mine, content);
    await nextTurn();
  }
  const node = markdownToNode(target);
  await nextTurn();
  const update = applyNode(live.doc, node);
  live.versionId = versionId;
  live.baseMarkdown = content;
  live.dirty = target !== content;
  if (!live.dirty) live.firstDirtyAt = null;
  if (update) live.seq++;
  await compact(live);
  if (update) live.broadcast({ type: "update", update: toBase64(update), clientId: "server" });
  live.broadcast({ type: "version", versionId, versionNumber: saved?.versionNumber ?? null });
  return true;
}
