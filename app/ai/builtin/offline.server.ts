import type { OfflineTask, OfflineTasks } from "./offline-tasks";
import { runOffline } from "./offline-pool.server";

/**
 * The offline drafter as the server calls it: every task of `builtinDrafter`
 * (and its writing notes) with the same arguments, answered by a worker thread under a time budget
 * (offline-pool.server.ts). Domain code calls this one; `builtinDrafter`
 * itself (synchronous, same thread) is for the worker and for unit tests.
 */

export type OfflineDrafter = {
  [K in OfflineTask]: OfflineTasks[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;
};

/** Every task of the drafter (the type checks none is missing). */
const TASKS: Record<OfflineTask, true> = {
  chat: true,
  firstQuestion: true,
  builderTurn: true,
  generatePrd: true,
  coach: true,
  improve: true,
  suggestions: true,
  userStories: true,
  technicalSpecs: true,
  roadmap: true,
  codeSpec: true,
  launchContent: true,
  wireframe: true,
  score: true,
  extractMemories: true,
  documentAnalysis: true,
  writingNotes: true,
  checkPrd: true,
};

export const offlineDrafter = Object.fromEntries(
  (Object.keys(TASKS) as OfflineTask[]).map((task) => [task, (...args: unknown[]) => runOffline(task, args)]),
) as unknown as OfflineDrafter;
