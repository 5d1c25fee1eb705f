import type { TaskContext } from "../context.server";
import type { ModelRequest } from "../types";
import { clip, GROUNDING, system } from "./shared";

/** A technical specification from a PRD (POST /api/ai/technical-specs). */
export function technicalSpecsPrompt(
  input: { prdContent: string; projectName?: string; focusAreas: string[] },
  ctx: TaskContext,
): Omit<ModelRequest, "signal"> {
  return {
    system: system("You are a staff engineer turning a PRD into a technical specification.", ctx, [
      GROUNDING,
      "Markdown with sections: Overview, Architecture and components, Data model, API, Non-functional requirements (numbers from the PRD), Security and privacy, Observability, Rollout and migration, Open technical questions.",
      ...(input.focusAreas.length ? [`Give extra depth, in its own section each, to: ${input.focusAreas.join(", ")}.`] : []),
    ]),
    messages: [{ role: "user", content: clip(`${input.projectName ? `Project: ${input.projectName}\n\n` : ""}PRD:\n\n${input.prdContent}`) }],
    maxTokens: 8000,
  };
}
