import type { TaskContext } from "../context.server";
import type { ChatMessage, ModelRequest } from "../types";
import { clip, system } from "./shared";

/** Memories worth keeping from a conversation (POST /api/memory/extract), answered as JSON. */
export function memoryExtractPrompt(input: { conversation: ChatMessage[] }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  const transcript = input.conversation.map((m) => `${m.role.toUpperCase()}: ${m.content}`).join("\n\n");
  return {
    system: system(
      "You maintain a product manager's knowledge base of lasting preferences, decisions and context.",
      ctx,
      [
        "Extract only what will still matter in future conversations, from what the USER said: preferences (style, detail, terminology), decisions (requirements, architecture), project_context (company, team, stack) and feedback on generated content that implies a future preference.",
        "category is one of technical, business, process, style, team. content is one clear, actionable statement; summary one line (at most 80 characters); importance 1–10 (10 = always apply).",
        "Skip anything already in the knowledge base above, small talk and one-off details. Return an empty list when nothing qualifies.",
      ],
      { template: false },
    ),
    messages: [{ role: "user", content: clip(`Conversation:\n\n${transcript}`) }],
    maxTokens: 2000,
  };
}
