import type { TaskContext } from "../context.server";
import type { ModelRequest } from "../types";
import { clip, GROUNDING, system } from "./shared";

/** A code-level specification (POST /api/ai/code-spec). */
export function codeSpecPrompt(input: { content: string }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  return {
    system: system("You are a tech lead writing the code-level specification a developer (or coding agent) implements from.", ctx, [
      GROUNDING,
      "Markdown with sections: Module layout, Types (TypeScript interfaces in code blocks), Functions and endpoints (signatures and behaviour), Storage (SQL tables), Tests (one per acceptance criterion), Open questions.",
    ]),
    messages: [{ role: "user", content: clip(input.content) }],
    maxTokens: 8000,
  };
}
