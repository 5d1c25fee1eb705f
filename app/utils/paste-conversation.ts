import type { ChatMessage } from "~/ai/types";

/**
 * Turns a pasted conversation into messages: a line starting with "User:" or
 * "Me:" starts a message of the user, "Assistant:" or "AI:" one of the
 * assistant (any case, optionally in **bold**). Lines without a prefix
 * continue the message before them; text before the first prefix counts as
 * the user's. Empty messages are dropped. Safe in the browser.
 */
const PREFIX = /^\s*(?:\*\*)?(user|me|assistant|ai)(?:\*\*)?\s*:(?:\*\*)?[ \t]*(.*)$/i;

export function parsePastedConversation(text: string): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let current: ChatMessage | null = null;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    const match = PREFIX.exec(line);
    if (match) {
      const role = /^(user|me)$/i.test(match[1]!) ? "user" : "assistant";
      current = { role, content: match[2]! };
      messages.push(current);
    } else if (current) {
      current.content += `\n${line}`;
    } else if (line.trim()) {
      current = { role: "user", content: line };
      messages.push(current);
    }
  }
  return messages.map((m) => ({ role: m.role, content: m.content.trim() })).filter((m) => m.content);
}
