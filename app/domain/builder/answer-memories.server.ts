import type { MemoryCategory, MemoryType } from "~/ai/schemas";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import { AppError } from "../errors";
import { extractMemorySchema, MAX_EXTRACT_MESSAGE_CHARS, MAX_EXTRACT_MESSAGES } from "../memory/memory.schema";
import { extractMemories } from "../memory/memory.server";
import { projectAccess } from "../projects/access.server";

/**
 * "Save what I said as memories" on the builder page (docs/ai.md, "Memory"):
 * the caller's own answers in a project's builder conversation, each after
 * the question it answers, go through the same extraction as
 * POST /api/memory/extract, with the project as the memories' source.
 */

const cut = (text: string) => (text.length > MAX_EXTRACT_MESSAGE_CHARS ? `${text.slice(0, MAX_EXTRACT_MESSAGE_CHARS - 1)}…` : text);

/** The caller's question/answer pairs of the project as a conversation: the latest ones that fit the extraction's 50 messages. */
export async function myBuilderConversation(actor: Actor, projectId: string) {
  const { project } = await projectAccess(actor, projectId);
  const pairs = await db
    .selectFrom("projectQaPairs")
    .select(["question", "answer"])
    .where("projectId", "=", project.id)
    .where("userId", "=", actor.user.id)
    .orderBy("position", "desc")
    .limit(MAX_EXTRACT_MESSAGES / 2)
    .execute();
  return pairs.reverse().flatMap((p) => [
    { role: "assistant" as const, content: cut(p.question) },
    { role: "user" as const, content: cut(p.answer) },
  ]);
}

export async function saveAnswersAsMemories(actor: Actor, projectId: string, options: { provider?: unknown } = {}, signal?: AbortSignal) {
  const conversation = await myBuilderConversation(actor, projectId);
  if (!conversation.length) {
    throw new AppError("VALIDATION_ERROR", 400, "You have not answered any question in this conversation yet: answer one first, then save it as memories.");
  }
  return extractMemories(actor, extractMemorySchema.parse({ conversation, projectId, provider: options.provider }), signal);
}

export interface SavedMemory {
  id: string;
  memoryType: MemoryType;
  category: MemoryCategory;
  summary: string;
  content: string;
}

/** The caller's own active memories among `ids` (the ones an extraction just saved), in the order given. */
export async function memoriesById(actor: Actor, ids: string[]): Promise<SavedMemory[]> {
  const wanted = [...new Set(ids)].slice(0, 50);
  if (!wanted.length) return [];
  const rows = await db
    .selectFrom("memories")
    .select(["id", "memoryType", "category", "summary", "content"])
    .where("userId", "=", actor.user.id)
    .where("isActive", "=", 1)
    .where("id", "in", wanted)
    .execute();
  const byId = new Map<string, SavedMemory>(rows.map((r) => [r.id, r]));
  return wanted.flatMap((id) => byId.get(id) ?? []);
}

/** How many of the project's answers the caller gave (the ones "Save what I said as memories" reads). */
export async function countMyAnswers(actor: Actor, projectId: string) {
  const { project } = await projectAccess(actor, projectId);
  const row = await db
    .selectFrom("projectQaPairs")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("projectId", "=", project.id)
    .where("userId", "=", actor.user.id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
