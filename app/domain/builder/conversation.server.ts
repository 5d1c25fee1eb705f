import { offlineDrafter } from "~/ai/builtin/offline.server";
import type { BuilderTurn } from "~/ai/builtin/contract";
import { loadTaskContext } from "~/ai/context.server";
import type { Producer } from "~/ai/events";
import { builderPrompt } from "~/ai/prompts/builder";
import { collect, prepareAi } from "~/ai/run.server";
import { db } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { recordChange } from "../projects/activity.server";
import { projectAccess, requireEdit, type Viewer } from "../projects/access.server";
import type { ProjectChatInput } from "./builder.schema";

/**
 * The conversational PRD builder. The assistant asks a question (the
 * template's first question, then one per answer), the user answers, and
 * each answer is saved with the question it answers and the assistant's
 * reply as a question/answer pair. PRD generation reads these pairs.
 */

function presentPair(row: {
  id: string;
  position: number;
  question: string;
  answer: string;
  response: string;
  nextQuestion: string | null;
  model: string;
  createdAt: string;
}) {
  return {
    id: row.id,
    position: row.position,
    question: row.question,
    answer: row.answer,
    response: row.response,
    nextQuestion: row.nextQuestion,
    model: row.model,
    createdAt: row.createdAt,
  };
}
export type QaPairOut = ReturnType<typeof presentPair>;

export async function qaPairs(projectId: string) {
  const rows = await db.selectFrom("projectQaPairs").selectAll().where("projectId", "=", projectId).orderBy("position", "asc").execute();
  return rows.map(presentPair);
}

/** The conversation so far and the question waiting for an answer. */
export async function getConversation(viewer: Viewer, projectId: string) {
  const { project } = await projectAccess(viewer, projectId);
  const pairs = await qaPairs(project.id);
  const last = pairs.at(-1);
  const ctx = await loadTaskContext(project.createdById ?? "", project, { memories: false, document: true });
  const nextQuestion = last ? last.nextQuestion : await offlineDrafter.firstQuestion(ctx);
  return { qaPairs: pairs, nextQuestion, complete: Boolean(last && !last.nextQuestion) };
}

/**
 * Answers the waiting question with `message`: streams the assistant's
 * reply, then saves the pair. Access is checked before anything streams;
 * nothing is saved when the reply fails.
 */
export async function startProjectChat(actor: Actor, projectId: string, input: ProjectChatInput): Promise<Producer> {
  const { project } = await requireEdit(actor, projectId);
  const pairs = await qaPairs(project.id);
  const ctx = await loadTaskContext(actor.user.id, project, { document: true });
  const lastAssistant = [...(input.conversationHistory ?? [])].reverse().find((m) => m.role === "assistant");
  const question = lastAssistant?.content.trim() || pairs.at(-1)?.nextQuestion || pairs.at(-1)?.response || (await offlineDrafter.firstQuestion(ctx));
  const earlier = pairs.map((p) => ({ question: p.question, answer: p.answer }));
  const ai = await prepareAi({ actor, task: "builder", projectId: project.id, provider: input.provider });
  // The drafter's turn also tells which sections are covered; kept for the done event.
  const drafted: { turn: BuilderTurn | null } = { turn: null };

  return async function* (signal) {
    const reply = yield* ai.streamText(
      {
        phase: "thinking",
        prompt: () => builderPrompt({ qaPairs: earlier, question, answer: input.message }, ctx),
        builtin: async () => {
          const turn = await offlineDrafter.builderTurn({ qaPairs: earlier, question, answer: input.message }, ctx);
          drafted.turn = turn;
          return turn.response;
        },
      },
      signal,
    );
    const response = reply.text.trim();
    const turn = drafted.turn;
    // A model's reply is the next question; a reply that asks nothing means the interview is done.
    const nextQuestion = turn ? turn.nextQuestion : response.includes("?") ? response : null;
    const saved = await db.transaction().execute(async (trx) => {
      const last = await trx
        .selectFrom("projectQaPairs")
        .select((eb) => eb.fn.max("position").as("n"))
        .where("projectId", "=", project.id)
        .executeTakeFirst();
      const row = {
        id: newId(),
        projectId: project.id,
        userId: actor.user.id,
        position: Number(last?.n ?? 0) + 1,
        question,
        answer: input.message,
        response,
        nextQuestion,
        model: ai.answered.model,
        createdAt: nowIso(),
      };
      await trx.insertInto("projectQaPairs").values(row).execute();
      await trx.updateTable("projects").set({ updatedAt: row.createdAt }).where("id", "=", project.id).execute();
      if (row.position === 1) {
        await recordChange(trx, {
          project,
          actor,
          action: "conversation.started",
          summary: `${actor.user.name} started the PRD conversation`,
          data: { qaPairId: row.id },
        });
      }
      return row;
    });
    yield {
      type: "done",
      fullContent: response,
      response,
      qaPairId: saved.id,
      nextQuestion,
      truncated: reply.truncated,
      ...(turn ? { covered: turn.covered, remaining: turn.remaining } : {}),
      ...ai.answered,
    };
  };
}

/** Non-streaming project chat: `{response, qaPairId}` plus what answered. */
export async function projectChat(actor: Actor, projectId: string, input: ProjectChatInput, signal?: AbortSignal) {
  const done = await collect(await startProjectChat(actor, projectId, input), signal);
  const { type: _type, fullContent: _full, ...rest } = done;
  return rest as { response: string; qaPairId: string; nextQuestion: string | null; model: string; provider: string };
}

/** Starts the conversation over (the PRD and its versions stay). */
export async function resetConversation(actor: Actor, projectId: string) {
  await db.transaction().execute(async (trx) => {
    const { project } = await requireEdit(actor, projectId, trx);
    const removed = await trx.deleteFrom("projectQaPairs").where("projectId", "=", project.id).executeTakeFirst();
    await recordChange(trx, {
      project,
      actor,
      action: "conversation.reset",
      summary: `${actor.user.name} cleared the PRD conversation`,
      data: { removed: Number(removed.numDeletedRows) },
    });
  });
}
