import { writingNotes } from "./improve";
import { builtinDrafter } from "./index";

/**
 * What the offline drafter's worker thread can run (offline-thread.ts): every
 * task of `builtinDrafter`, and the writing notes shown beside an offline
 * rewrite. The server reaches them through offline.server.ts.
 */
export const offlineTasks = { ...builtinDrafter, writingNotes };

export type OfflineTasks = typeof offlineTasks;
export type OfflineTask = keyof OfflineTasks;
