import { checkPrd } from "~/prd-rules/check";
import { writingNotes } from "./improve";
import { builtinDrafter } from "./index";

/**
 * What the offline drafter's worker thread can run (offline-thread.ts): every
 * task of `builtinDrafter`, the writing notes shown beside an offline
 * rewrite, and the rule-based PRD check of a long document
 * (app/domain/prd/check-cache.server.ts). The server reaches them through
 * offline.server.ts.
 */
export const offlineTasks = { ...builtinDrafter, writingNotes, checkPrd };

export type OfflineTasks = typeof offlineTasks;
export type OfflineTask = keyof OfflineTasks;
