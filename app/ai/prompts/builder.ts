import type { QaPair } from "../builtin/contract";
import type { TaskContext } from "../context.server";
import type { ModelRequest } from "../types";
import { clip, system } from "./shared";

/** One step of the conversational PRD builder: acknowledge the answer, ask the next question. */
export function builderPrompt(
  input: { qaPairs: QaPair[]; question: string; answer: string },
  ctx: TaskContext,
): Omit<ModelRequest, "signal"> {
  const sections = ctx.template?.sections.length ? ctx.template.sections.join("; ") : "the usual PRD sections";
  const messages: ModelRequest["messages"] = [];
  for (const pair of input.qaPairs.slice(-20)) {
    messages.push({ role: "assistant", content: pair.question }, { role: "user", content: clip(pair.answer, 8000) });
  }
  messages.push({ role: "assistant", content: input.question }, { role: "user", content: clip(input.answer, 8000) });
  return {
    system: system(
      "You are interviewing a product manager to gather what is needed for a strong PRD. The PRD will be generated from this conversation later.",
      ctx,
      [
        `The PRD must cover: ${sections}. Track which of these the answers already cover.`,
        "Reply with one or two sentences that acknowledge the latest answer concretely (reuse its key phrase), then ask exactly ONE next question about the most important part not yet covered.",
        "If the latest answer is vague, ask for specifics on the same topic instead of moving on.",
        "When every important part is covered, say so and suggest pressing “Generate PRD”; do not ask another question then.",
        "Plain text, no headings, at most 80 words.",
      ],
    ),
    messages,
    maxTokens: 400,
  };
}
