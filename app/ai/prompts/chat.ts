import type { TaskContext } from "../context.server";
import type { ChatMessage, ModelRequest } from "../types";
import { clip, GROUNDING, system } from "./shared";

/** Free conversation about product work (POST /api/chat). */
export function chatPrompt(input: { messages: ChatMessage[] }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  return {
    system: system("You are a senior product manager helping a colleague think through product requirements.", ctx, [
      GROUNDING,
      "Answer in Markdown. Be concrete and brief; ask one clarifying question when the request is ambiguous.",
    ]),
    messages: input.messages.slice(-40).map((m) => ({ role: m.role, content: clip(m.content, 20_000) })),
    maxTokens: 2000,
  };
}
