import type { TaskContext } from "../context.server";
import { IMPROVEMENT_LABELS, type ImprovementType } from "../schemas";
import type { ModelRequest } from "../types";
import { clip, GROUNDING, system } from "./shared";

/** Rewrites text one way (POST /api/ai/improve); the answer is the rewritten text only. */
export function improvePrompt(
  input: { content: string; improvementType: ImprovementType; customPrompt?: string },
  ctx: TaskContext,
): Omit<ModelRequest, "signal"> {
  const { label, description } = IMPROVEMENT_LABELS[input.improvementType];
  return {
    system: system("You are an editor improving part of a product requirements document.", ctx, [
      `Edit: ${label} — ${description}`,
      GROUNDING,
      "Keep the Markdown structure (headings, lists, tables, code blocks) and the author's facts.",
      "Answer with the full rewritten text only: no preamble, no explanation, no code fence around it.",
      ...(input.customPrompt ? [`Also follow this instruction from the author: ${input.customPrompt}`] : []),
    ]),
    messages: [{ role: "user", content: clip(input.content) }],
    maxTokens: Math.min(16_000, Math.ceil(input.content.length / 2) + 1000),
  };
}
