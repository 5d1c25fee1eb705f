import { config } from "~/config.server";
import { logger } from "~/utils/log.server";
import { checkpointLive } from "./checkpoint.server";
import { capReached, estimatedBytes } from "./limits.server";
import type { LiveDoc } from "./live-doc.server";
import { loadLiveDoc } from "./load.server";
import { compact } from "./reconcile.server";

/**
 * The live documents held in memory, on the LiteFS primary only (the API
 * replays live requests there). A document is loaded on first use and
 * evicted EVICT_MS after its last subscriber left, once its edits are saved.
 * At most LIVE_MAX_DOCS documents, taking at most about LIVE_MEMORY_MB, are
 * held: beyond, the least recently used that nobody follows is saved and
 * leaves memory first; when every one held is followed, a new document is
 * refused (429) until one frees up.
 */

export const EVICT_MS = 60_000;

const docs = new Map<string, LiveDoc>();
const loading = new Map<string, Promise<LiveDoc>>();
/** Projects whose stored document is being dropped (a reset): loads wait for it. */
const dropping = new Map<string, Promise<void>>();

/** The project's live document, loaded once however many ask at the same time. */
export async function getLiveDoc(projectId: string, onLoad: (live: LiveDoc) => void): Promise<LiveDoc> {
  for (;;) {
    const busy = dropping.get(projectId);
    if (busy) {
      await busy.catch(() => undefined);
      continue;
    }
    const known = docs.get(projectId);
    if (known) return known;
    const pending = loading.get(projectId);
    if (pending) return pending;
    if (overBounds(1)) {
      await makeRoom(1);
      // Others may have loaded it, or filled the room, meanwhile: look again.
      if (docs.has(projectId) || loading.has(projectId) || dropping.has(projectId)) continue;
      if (overBounds(1)) throw atCapacity();
    }
    const load = loadLiveDoc(projectId)
      .then((live) => {
        docs.set(projectId, live);
        onLoad(live);
        makeRoomAfter(live);
        return live;
      })
      .finally(() => loading.delete(projectId));
    loading.set(projectId, load);
    return load;
  }
}

/** The loaded document of a project, if any (nothing is loaded). */
export const loadedLiveDoc = (projectId: string) => docs.get(projectId);

export const loadedLiveDocs = () => [...docs.values()];

// ---------------------------------------------------------------- the bound on documents held

const heldBytes = () => [...docs.values()].reduce((n, live) => n + estimatedBytes(live.doc, live.bytes), 0);

/** Whether holding `more` documents beyond those held (and being loaded) would pass a bound. */
function overBounds(more: number) {
  const { LIVE_MAX_DOCS, LIVE_MEMORY_MB } = config();
  let held = docs.size + more;
  for (const projectId of loading.keys()) if (!docs.has(projectId)) held++;
  return held > LIVE_MAX_DOCS || heldBytes() > LIVE_MEMORY_MB * 1024 * 1024;
}

const atCapacity = () =>
  capReached("Live editing is at capacity on this server (every document it may hold is open). Try again in a minute.", config().LIVE_MAX_DOCS, 30);

/** Saves and evicts the least recently used documents nobody follows, until `more` would fit (or none is left to evict). */
async function makeRoom(more: number, keep?: LiveDoc) {
  const candidates = [...docs.values()]
    .filter((live) => live !== keep && live.subscribers.size === 0 && !live.evicting)
    .sort((a, b) => a.lastActivity - b.lastActivity);
  for (const live of candidates) {
    if (!overBounds(more)) return;
    await evictSaved(live);
  }
}

/** After a document was loaded or grew: evicts others (least recently used first, in the background) while the bounds are passed. */
export function makeRoomAfter(live: LiveDoc) {
  if (!overBounds(0)) return;
  void makeRoom(0, live).catch((error) => logger.warn("[live] a document could not be evicted to make room", { error }));
}

/**
 * Saves a document and takes it out of memory: its unsaved edits become a
 * version (checkpoint), its stored updates are folded into one snapshot,
 * then it is evicted. Every accepted update is stored before it is
 * acknowledged, so even a failed checkpoint loses nothing: the next load
 * schedules it again.
 */
async function evictSaved(live: LiveDoc) {
  if (live.evicting || live.evicted) return;
  live.evicting = true;
  try {
    if (live.dirty) await checkpointLive(live, "memory");
    await live.run(async () => {
      if (live.evicted || live.subscribers.size > 0) return;
      if (live.rows > 0) await compact(live);
      evict(live);
    });
  } finally {
    live.evicting = false;
  }
}

// ---------------------------------------------------------------- leaving memory

/**
 * Notes activity and, while nobody is subscribed, (re)arms the eviction: the
 * document leaves memory EVICT_MS after the last activity, once it holds no
 * unsaved edits (`canEvict`, checked inside the document's queue).
 */
export function armEviction(live: LiveDoc, canEvict: (live: LiveDoc) => boolean) {
  live.lastActivity = Date.now();
  clearTimeout(live.timers.evict);
  live.timers.evict = undefined;
  if (live.subscribers.size > 0 || live.evicted) return;
  const fire = () => {
    live.timers.evict = undefined;
    void live.run(() => {
      if (live.evicted || live.subscribers.size > 0) return;
      const wait = live.lastActivity + EVICT_MS - Date.now();
      if (wait > 0 || !canEvict(live)) {
        live.timers.evict = setTimeout(fire, Math.max(wait, 1000)).unref();
        return;
      }
      evict(live);
    });
  };
  live.timers.evict = setTimeout(fire, EVICT_MS).unref();
}

export function evict(live: LiveDoc) {
  if (docs.get(live.projectId) === live) docs.delete(live.projectId);
  live.evicted = true;
  live.clearTimers();
  for (const sub of [...live.subscribers]) sub.close();
  live.doc.destroy();
}

/** Forgets every document without saving (a demoted primary, a simulated restart in tests); open streams end. */
export function dropAll() {
  for (const live of [...docs.values()]) evict(live);
  docs.clear();
}

/**
 * Drops the project's stored live document with `drop` and, if it is in
 * memory, the document too (its streams end; browsers reconnect and sync
 * the new one). No load reads the stored document half-dropped: a load in
 * progress is waited for, and loads that start meanwhile wait for the drop.
 */
export async function discardLiveDoc(projectId: string, drop: () => Promise<void>) {
  for (;;) {
    const pending = loading.get(projectId) ?? dropping.get(projectId);
    if (pending) {
      await pending.catch(() => undefined);
      continue;
    }
    const live = docs.get(projectId);
    if (live) {
      const done = await live.run(async () => {
        if (live.evicted) return false;
        await drop();
        evict(live);
        return true;
      });
      if (done) return;
      continue;
    }
    const task = drop().finally(() => dropping.delete(projectId));
    dropping.set(projectId, task);
    return task;
  }
}
