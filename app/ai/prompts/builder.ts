import { interviewOutline, readAnswers } from "../builtin/answers";
import type { QaPair } from "../builtin/contract";
import type { TaskContext } from "../context.server";
import type { ModelRequest } from "../types";
import { clip, documentBlock, system } from "./shared";

/** One step of the conversational PRD builder: acknowledge the answer, ask the next question. */
export function builderPrompt(input: { qaPairs: QaPair[]; question: string; answer: string }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  const sections = ctx.template?.sections.length ? ctx.template.sections.join("; ") : "the usual PRD sections";
  // What the description and the answers already cover, read the same way the offline drafter reads them.
  const reading = readAnswers([...input.qaPairs, { question: input.question, answer: input.answer }], interviewOutline(ctx), ctx);
  const plans = reading.plans.filter((p) => !p.derived);
  const covered = plans.filter((p) => reading.covered[p.index]).map((p) => p.title);
  const open = plans.filter((p) => !reading.covered[p.index]).map((p) => p.title);
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
        `Already covered by the project description and the answers so far: ${covered.length ? covered.join("; ") : "nothing yet"}. Still open: ${open.length ? open.join("; ") : "nothing"}. Never ask for something the description or an earlier answer already says.`,
        ...(documentBlock(ctx, 6000) ? [documentBlock(ctx, 6000)] : []),
        "Reply with one or two sentences that acknowledge the latest answer concretely (reuse its key phrase), then ask exactly ONE next question about the most important part not yet covered.",
        "Challenge a weak answer before moving on: if it is vague, off-topic, gives a goal without a number (baseline, target, date), names no user, or contradicts an earlier answer, say in a few words what is missing or inconsistent and ask for it on the same topic.",
        "When every important part is covered, say so and suggest pressing “Generate PRD”; do not ask another question then.",
        "Plain text, no headings, at most 80 words.",
      ],
    ),
    messages,
    maxTokens: 400,
  };
}
