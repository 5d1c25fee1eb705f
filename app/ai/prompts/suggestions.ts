import type { TaskContext } from "../context.server";
import type { ModelRequest } from "../types";
import { clip, system } from "./shared";

/** 3 to 5 suggestions (POST /api/ai/suggestions), answered as JSON. */
export function suggestionsPrompt(input: { content: string; projectName?: string }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  return {
    system: system("You suggest the most valuable edits to a PRD.", ctx, [
      "Give 3 to 5 suggestions, most important first, each about one section (name it as the PRD names it).",
      "type is one of completeness, clarity, metrics, user_focus, technical, risk, structure; severity is high, medium or low.",
      "title: at most 10 words. description: what to change and why, concretely.",
    ]),
    messages: [{ role: "user", content: clip(`PRD${input.projectName ? ` for “${input.projectName}”` : ""}:\n\n${input.content}`) }],
    maxTokens: 1500,
  };
}
