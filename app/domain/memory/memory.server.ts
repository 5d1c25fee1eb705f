import type { Selectable } from "kysely";
import type { MemoriesTable } from "#db/schema";
import { offlineDrafter } from "~/ai/builtin/offline.server";
import { loadTaskContext } from "~/ai/context.server";
import { memoryExtractPrompt } from "~/ai/prompts/memory-extract";
import { asAppError, prepareAi } from "~/ai/run.server";
import { extractionSchema, type MemoryCandidate } from "~/ai/schemas";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { notFound } from "../errors";
import { projectAccess } from "../projects/access.server";
import type { CreateMemoryInput, ExtractMemoryInput, ListMemoryQuery } from "./memory.schema";
import { isNearDuplicate } from "./similarity";

/**
 * The per-user memory store: preferences, decisions, project context and
 * feedback that AI prompts include (most important first). Memories belong
 * to one user; nobody else, in any organization, can list or change them.
 * Deleting is soft: `active=false` lists deleted ones too.
 */

type MemoryRow = Selectable<MemoriesTable>;

function present(row: MemoryRow) {
  return {
    id: row.id,
    userId: row.userId,
    memoryType: row.memoryType,
    category: row.category,
    content: row.content,
    summary: row.summary,
    importance: row.importance,
    isActive: row.isActive === 1,
    sourceProjectId: row.sourceProjectId,
    sourceConversation: row.sourceConversation ? (JSON.parse(row.sourceConversation) as unknown[]) : null,
    lastUsedAt: row.lastUsedAt,
    createdAt: row.createdAt,
  };
}
export type MemoryOut = ReturnType<typeof present>;

/** Importance first, then the most recently used, then the newest. */
export async function listMemories(actor: Actor, query: ListMemoryQuery) {
  let q = db.selectFrom("memories").selectAll().where("userId", "=", actor.user.id);
  if (query.active) q = q.where("isActive", "=", 1);
  if (query.category) q = q.where("category", "=", query.category);
  if (query.type) q = q.where("memoryType", "=", query.type);
  const rows = await q
    .orderBy("importance", "desc")
    .orderBy((eb) => eb.fn.coalesce("lastUsedAt", eb.val("")), "desc")
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(query.limit)
    .execute();
  return rows.map(present);
}

/** A one-line summary from the content when none is given. */
export function summarize(content: string) {
  const first = content.split(/(?<=[.!?])\s|\n/)[0]!.trim();
  return first.length > 80 ? `${first.slice(0, 79).trimEnd()}…` : first;
}

/** The source project must be one the user can read; otherwise it is not recorded as a source. */
async function sourceProject(actor: Actor, projectId: string | undefined) {
  if (!projectId) return null;
  const access = await projectAccess(actor, projectId).catch(() => null);
  if (!access) throw notFound("Project");
  return access.project.id;
}

async function insertMemory(executor: Executor, actor: Actor, input: CreateMemoryInput, sourceProjectId: string | null) {
  const now = nowIso();
  const row: MemoryRow = {
    id: newId(),
    userId: actor.user.id,
    memoryType: input.memoryType,
    category: input.category,
    content: input.content,
    summary: input.summary ?? summarize(input.content),
    importance: input.importance,
    isActive: 1,
    sourceProjectId,
    sourceConversation: input.sourceConversation ? JSON.stringify(input.sourceConversation) : null,
    lastUsedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await executor.insertInto("memories").values(row).execute();
  return present(row);
}

export async function createMemory(actor: Actor, input: CreateMemoryInput) {
  const source = await sourceProject(actor, input.sourceProjectId);
  return insertMemory(db, actor, input, source);
}

export async function deleteMemory(actor: Actor, id: string) {
  const result = await db
    .updateTable("memories")
    .set({ isActive: 0, updatedAt: nowIso() })
    .where("id", "=", id)
    .where("userId", "=", actor.user.id)
    .where("isActive", "=", 1)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound("Memory");
}

/** What a memory keeps of its source conversation: the last 20 messages, each cut to 2,000 characters. */
function excerpt(conversation: ExtractMemoryInput["conversation"]) {
  return conversation.slice(-20).map((m) => ({ role: m.role, content: m.content.length > 2000 ? `${m.content.slice(0, 1999)}…` : m.content }));
}

/**
 * Extracts memories from a conversation with the caller's AI settings (or
 * the offline drafter) and saves the new ones. A candidate that nearly
 * repeats an existing active memory, or another candidate, is skipped.
 */
export async function extractMemories(actor: Actor, input: ExtractMemoryInput, signal?: AbortSignal) {
  const source = await sourceProject(actor, input.projectId);
  const ctx = await loadTaskContext(actor.user.id, null);
  const ai = await prepareAi({ actor, task: "memory_extract", projectId: source, provider: input.provider });
  let candidates: MemoryCandidate[];
  try {
    const answer = await ai.completeJson(
      {
        name: "memories",
        description: "Lasting memories extracted from the conversation",
        schema: extractionSchema,
        prompt: () => memoryExtractPrompt({ conversation: input.conversation }, ctx),
        builtin: async () => ({ memories: await offlineDrafter.extractMemories({ conversation: input.conversation }, ctx) }),
      },
      signal,
    );
    candidates = answer.value.memories;
  } catch (error) {
    throw asAppError(error);
  }
  const saved = await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("memories").select("content").where("userId", "=", actor.user.id).where("isActive", "=", 1).execute();
    const known = existing.map((m) => m.content);
    const out: MemoryOut[] = [];
    for (const c of candidates) {
      if (known.some((k) => isNearDuplicate(k, c.content))) continue;
      known.push(c.content);
      out.push(await insertMemory(trx, actor, { ...c, summary: c.summary || undefined, sourceConversation: excerpt(input.conversation) }, source));
    }
    return out;
  });
  return { extracted: candidates.length, saved: saved.length, memories: saved, model: ai.answered.model, provider: ai.answered.provider };
}
