import type { Project } from "#db/schema";
import { db } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import type { BuiltinContext } from "./builtin/contract";
import type { MemoryCategory, MemoryType } from "./schemas";

/**
 * The context every AI task gets: the project (name, description), its
 * template (system prompt, sections, first question) and the user's active
 * memories, most important first, within a character budget. Memories put
 * into a prompt are marked as used, which moves them up the list.
 */

export const MEMORY_BUDGET_CHARS = 2400;

export interface TaskContext extends BuiltinContext {
  template: (BuiltinContext["template"] & { systemPrompt: string }) | null;
}

export async function loadTaskContext(
  userId: string,
  project: (Pick<Project, "name" | "description" | "templateId"> & { id?: string }) | null,
  options: { memories?: boolean; document?: boolean } = {},
): Promise<TaskContext> {
  // The builder and the PRD writer read the current PRD first (an import, or the user's edits).
  const document =
    options.document && project?.id
      ? (await db.selectFrom("prds").select("content").where("projectId", "=", project.id).executeTakeFirst())?.content
      : undefined;
  const template = project?.templateId
    ? await db.selectFrom("templates").select(["name", "systemPrompt", "sections", "initialQuestion"]).where("id", "=", project.templateId).executeTakeFirst()
    : undefined;
  const memories = options.memories === false ? [] : await activeMemories(userId);
  return {
    projectName: project?.name,
    projectDescription: project?.description || undefined,
    template: template
      ? {
          name: template.name,
          systemPrompt: template.systemPrompt,
          sections: JSON.parse(template.sections) as string[],
          initialQuestion: template.initialQuestion,
        }
      : null,
    memories,
    ...(document?.trim() ? { document } : {}),
  };
}

/** Active memories, importance then recent use, within MEMORY_BUDGET_CHARS; marks them used. */
async function activeMemories(userId: string) {
  const rows = await db
    .selectFrom("memories")
    .select(["id", "memoryType", "category", "content", "importance"])
    .where("userId", "=", userId)
    .where("isActive", "=", 1)
    .orderBy("importance", "desc")
    .orderBy((eb) => eb.fn.coalesce("lastUsedAt", eb.val("")), "desc")
    .orderBy("createdAt", "desc")
    .limit(50)
    .execute();
  const picked: typeof rows = [];
  let used = 0;
  for (const row of rows) {
    if (used + row.content.length > MEMORY_BUDGET_CHARS) continue;
    used += row.content.length;
    picked.push(row);
  }
  if (picked.length) {
    await db
      .updateTable("memories")
      .set({ lastUsedAt: nowIso() })
      .where(
        "id",
        "in",
        picked.map((m) => m.id),
      )
      .execute();
  }
  return picked.map((m) => ({
    memoryType: m.memoryType as MemoryType,
    category: m.category as MemoryCategory,
    content: m.content,
    importance: m.importance,
  }));
}
