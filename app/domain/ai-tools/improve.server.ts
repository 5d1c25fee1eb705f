import { offlineDrafter } from "~/ai/builtin/offline.server";
import type { Producer } from "~/ai/events";
import { improvePrompt } from "~/ai/prompts/improve";
import { prepareAi } from "~/ai/run.server";
import { IMPROVEMENT_LABELS, IMPROVEMENT_TYPES } from "~/ai/schemas";
import type { Actor } from "../actor";
import type { ImproveInput } from "./ai-tools.schema";
import { toolScope } from "./outputs.server";

/** The eight ways text can be improved, with labels for a menu. */
export function improvementTypes() {
  return IMPROVEMENT_TYPES.map((type) => ({ type, id: type, ...IMPROVEMENT_LABELS[type] }));
}

/**
 * Streams a rewritten version of `content`. Nothing is saved: the caller
 * shows the change and the user accepts it (saving the PRD) or rejects it.
 */
export async function startImprove(actor: Actor, input: ImproveInput): Promise<Producer> {
  const { project, ctx } = await toolScope(actor, input.projectId);
  const ai = await prepareAi({ actor, task: "improve", projectId: project?.id, provider: input.provider });
  const request = { content: input.content, improvementType: input.improvementType, customPrompt: input.customPrompt };
  return async function* (signal) {
    const result = yield* ai.streamText(
      {
        phase: "rewriting",
        prompt: () => improvePrompt(request, ctx),
        builtin: () => offlineDrafter.improve(request, ctx),
        progress: (text) => (text.length / Math.max(1, input.content.length)) * 100,
      },
      signal,
    );
    yield {
      type: "done",
      fullContent: result.text,
      improvementType: input.improvementType,
      changed: result.text.trim() !== input.content.trim(),
      truncated: result.truncated,
      // Advice beside the rewrite (the offline drafter's, from its thread), never inside the text.
      notes: ai.isBuiltin ? await offlineDrafter.writingNotes(request) : [],
      ...ai.answered,
    };
  };
}
