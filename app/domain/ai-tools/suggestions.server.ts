import { offlineDrafter } from "~/ai/builtin/offline.server";
import { suggestionsPrompt } from "~/ai/prompts/suggestions";
import { asAppError, prepareAi } from "~/ai/run.server";
import { suggestionsSchema } from "~/ai/schemas";
import { sha256 } from "~/utils/ids.server";
import type { Actor } from "../actor";
import type { SuggestionsInput } from "./ai-tools.schema";
import { toolScope } from "./outputs.server";

/**
 * 3 to 5 concrete suggestions for a PRD (non-streaming). Ids are derived
 * from the suggestion, so the same suggestion keeps its id across calls.
 */
export async function suggestImprovements(actor: Actor, input: SuggestionsInput, signal?: AbortSignal) {
  const { project, ctx } = await toolScope(actor, input.projectId, input.projectName);
  const ai = await prepareAi({ actor, task: "suggestions", projectId: project?.id, provider: input.provider });
  try {
    const answer = await ai.completeJson(
      {
        name: "suggestions",
        description: "3 to 5 suggestions for improving the PRD",
        schema: suggestionsSchema,
        prompt: () => suggestionsPrompt({ content: input.content, projectName: input.projectName ?? ctx.projectName }, ctx),
        builtin: async () => ({ suggestions: await offlineDrafter.suggestions({ content: input.content }, ctx) }),
      },
      signal,
    );
    const suggestions = answer.value.suggestions.map((s) => ({
      id: `sug_${sha256(`${s.section}|${s.type}|${s.title}`).slice(0, 16)}`,
      ...s,
    }));
    return { suggestions, model: answer.model, provider: answer.provider, keySource: answer.keySource };
  } catch (error) {
    throw asAppError(error);
  }
}
