import { offlineDrafter } from "~/ai/builtin/offline.server";
import { loadTaskContext } from "~/ai/context.server";
import { chatPrompt } from "~/ai/prompts/chat";
import { asAppError, drain, prepareAi } from "~/ai/run.server";
import type { ChatMessage } from "~/ai/types";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import { projectAccess } from "../projects/access.server";
import type { ChatInput } from "./builder.schema";

/**
 * Free chat (POST /api/chat). With `projectId` the project's template and
 * current PRD are part of the context (the caller must be able to read the
 * project). Nothing is saved. Callers cannot send `system` messages (the
 * schema refuses them): the system prompt is the app's alone.
 */
export async function chat(actor: Actor, input: ChatInput, signal?: AbortSignal) {
  const access = input.projectId ? await projectAccess(actor, input.projectId) : null;
  const project = access?.project ?? null;
  const ctx = await loadTaskContext(actor.user.id, project);
  const messages: ChatMessage[] = input.messages.map((m) => ({ role: m.role, content: m.content }));
  const prd = project ? await db.selectFrom("prds").select("content").where("projectId", "=", project.id).executeTakeFirst() : undefined;
  const ai = await prepareAi({ actor, task: "chat", projectId: project?.id, provider: input.provider });
  try {
    const run = ai.streamText(
      {
        prompt: () => {
          const base = chatPrompt({ messages }, ctx);
          const extra = prd?.content ? [`The project's current PRD:\n\n${prd.content.slice(0, 40_000)}`] : [];
          return { ...base, system: [base.system, ...extra].join("\n\n") };
        },
        builtin: () =>
          offlineDrafter.chat({ messages: prd?.content ? [{ role: "user", content: `Current PRD:\n\n${prd.content}` }, ...messages] : messages }, ctx),
      },
      signal ?? new AbortController().signal,
    );
    const result = await drain(run);
    return { role: "assistant" as const, content: result.text.trim(), truncated: result.truncated, ...ai.answered };
  } catch (error) {
    throw asAppError(error);
  }
}
