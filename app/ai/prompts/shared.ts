import type { TaskContext } from "../context.server";
import type { ChatMessage } from "../types";

/**
 * Pieces every prompt shares: the project, its template and the user's
 * memories. Long inputs are cut to a character budget (≈ 4 characters a
 * token) so a prompt never outgrows the model's context.
 */

export const INPUT_BUDGET_CHARS = 60_000;

export function clip(text: string, max = INPUT_BUDGET_CHARS) {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n\n[… ${text.length - max} more characters not shown]`;
}

export function projectBlock(ctx: TaskContext) {
  if (!ctx.projectName) return "";
  const lines = [`Project: ${ctx.projectName}`];
  if (ctx.projectDescription) lines.push(`Description: ${ctx.projectDescription}`);
  return lines.join("\n");
}

/** The project's current PRD (an import, or the user's edits), for the builder and the writer to read first. */
export function documentBlock(ctx: TaskContext, max = 12_000) {
  if (!ctx.document?.trim() || /^_(?:Draft|Outline) · /m.test(ctx.document)) return "";
  return `The project's current PRD (imported or written by the user): read it first; it is the user's own text.\n<current_prd>\n${clip(ctx.document, max)}\n</current_prd>`;
}

export function templateBlock(ctx: TaskContext) {
  const t = ctx.template;
  if (!t) return "";
  const lines = [`The project uses the PRD template "${t.name}".`];
  if (t.sections.length) lines.push(`Its sections, in order: ${t.sections.join("; ")}.`);
  if (t.systemPrompt.trim()) lines.push(`Template instructions:\n${t.systemPrompt.trim()}`);
  return lines.join("\n");
}

export function memoryBlock(ctx: TaskContext) {
  if (!ctx.memories.length) return "";
  const lines = ctx.memories.map((m) => `- (${m.memoryType}, ${m.category}, importance ${m.importance}) ${m.content}`);
  return `What this user has asked you to remember (most important first); follow it unless the request says otherwise:\n${lines.join("\n")}`;
}

/** A system prompt: the role, then the project, template and memories, then the task's rules. */
export function system(role: string, ctx: TaskContext, rules: string[], options: { template?: boolean } = {}) {
  return [
    role,
    projectBlock(ctx),
    options.template === false ? "" : templateBlock(ctx),
    memoryBlock(ctx),
    rules.length ? `Rules:\n${rules.map((r) => `- ${r}`).join("\n")}` : "",
  ]
    .filter(Boolean)
    .join("\n\n");
}

export const GROUNDING =
  "Ground every statement in the material given. Never invent customers, numbers, dates or names; where something is missing, say so or list it as an open question.";

export function userMessage(content: string): ChatMessage[] {
  return [{ role: "user", content }];
}
