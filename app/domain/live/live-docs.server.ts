import type { LiveDoc } from "./live-doc.server";
import { loadLiveDoc } from "./load.server";

/**
 * The live documents held in memory, on the LiteFS primary only (the API
 * replays live requests there). A document is loaded on first use and
 * evicted EVICT_MS after its last subscriber left, once its edits are saved.
 */

export const EVICT_MS = 60_000;

const docs = new Map<string, LiveDoc>();
const loading = new Map<string, Promise<LiveDoc>>();

/** The project's live document, loaded once however many ask at the same time. */
export async function getLiveDoc(projectId: string, onLoad: (live: LiveDoc) => void): Promise<LiveDoc> {
  const known = docs.get(projectId);
  if (known) return known;
  let pending = loading.get(projectId);
  if (!pending) {
    pending = loadLiveDoc(projectId)
      .then((live) => {
        docs.set(projectId, live);
        onLoad(live);
        return live;
      })
      .finally(() => loading.delete(projectId));
    loading.set(projectId, pending);
  }
  return pending;
}

/** The loaded document of a project, if any (nothing is loaded). */
export const loadedLiveDoc = (projectId: string) => docs.get(projectId);

export const loadedLiveDocs = () => [...docs.values()];

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
