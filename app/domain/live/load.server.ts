import * as Y from "yjs";
import { logger } from "~/utils/log.server";
import { currentPrd, prdVersionContent } from "../prd/prd.server";
import { emptyYDoc, markdownToJson, yDocFromJson } from "./document.server";
import { LiveDoc } from "./live-doc.server";
import { nextTurn, reconcile } from "./reconcile.server";
import { loadStored, type StoredLiveDoc, writeSnapshot } from "./store.server";

/**
 * A project's live document, read into memory: the stored snapshot with the
 * updates stored since, or, the first time, the PRD's Markdown (stored at
 * once, so every later load and every client builds on the same Yjs items).
 * A document last reconciled with an older version than the PRD's current
 * one (saved while nobody was live) is brought in line before anyone sees it.
 */
export async function loadLiveDoc(projectId: string): Promise<LiveDoc> {
  const prd = await currentPrd(projectId);
  const stored = await loadStored(projectId);
  if (!stored) {
    const content = prd?.content ?? "";
    const json = markdownToJson(content);
    await nextTurn();
    const doc = yDocFromJson(json);
    const state = Y.encodeStateAsUpdate(doc);
    await writeSnapshot(projectId, state, { versionId: prd?.versionId ?? null, dirty: false });
    return new LiveDoc(projectId, doc, {
      versionId: prd?.versionId ?? null,
      baseMarkdown: content,
      dirty: false,
      rows: 0,
      lastRowId: 0,
      bytes: state.byteLength,
    });
  }
  const live = new LiveDoc(projectId, docFromStored(projectId, stored), {
    versionId: stored.versionId,
    baseMarkdown: await baseOf(projectId, stored.versionId, prd),
    dirty: stored.dirty,
    ...rowsOf(stored),
  });
  const last = stored.updates.at(-1);
  if (last?.userId) live.lastEditor = { userId: last.userId };
  if (live.dirty) live.firstDirtyAt = Date.now();
  await reconcile(live, prd);
  return live;
}

/** Reads the stored document again (after an update that failed half-way through being applied or stored). */
export async function reloadFromStore(live: LiveDoc) {
  const stored = await loadStored(live.projectId);
  const old = live.doc;
  live.doc = stored ? docFromStored(live.projectId, stored) : emptyYDoc();
  old.destroy();
  Object.assign(live, rowsOf(stored));
  live.seq++;
}

function rowsOf(stored: StoredLiveDoc | null) {
  const updates = stored?.updates ?? [];
  return {
    rows: updates.length,
    lastRowId: updates.at(-1)?.id ?? 0,
    bytes: (stored?.state.byteLength ?? 0) + updates.reduce((n, u) => n + u.data.byteLength, 0),
  };
}

function docFromStored(projectId: string, stored: StoredLiveDoc) {
  const doc = emptyYDoc();
  try {
    Y.applyUpdate(doc, Y.mergeUpdates([stored.state, ...stored.updates.map((u) => u.data)]));
    return doc;
  } catch (error) {
    // Each stored update was applied once already; apply them one by one and skip any that fails now.
    logger.warn("[live] a stored update could not be merged; applying one by one", { projectId, error });
    const fallback = emptyYDoc();
    for (const update of [stored.state, ...stored.updates.map((u) => u.data)]) {
      try {
        Y.applyUpdate(fallback, update);
      } catch {
        /* skipped */
      }
    }
    return fallback;
  }
}

/** The Markdown of the version the stored document was reconciled with: the base of a merge with saves made since. */
async function baseOf(projectId: string, versionId: string | null, prd: Awaited<ReturnType<typeof currentPrd>>) {
  if (versionId === (prd?.versionId ?? null)) return prd?.content ?? "";
  if (!versionId) return "";
  return (await prdVersionContent(projectId, versionId)) ?? prd?.content ?? "";
}
