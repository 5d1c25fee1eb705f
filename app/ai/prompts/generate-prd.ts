import type { QaPair } from "../builtin/contract";
import type { TaskContext } from "../context.server";
import type { PrdStyle } from "../schemas";
import type { ModelRequest } from "../types";
import { clip, documentBlock, GROUNDING, system } from "./shared";

const STYLE: Record<PrdStyle, string> = {
  comprehensive: "Comprehensive: every section fully developed for engineering, design and leadership.",
  technical: "Technical: emphasise architecture, interfaces, data, non-functional requirements and edge cases.",
  business: "Business: emphasise the problem, market, business case, KPIs, pricing and go-to-market.",
  lean: "Lean: one page; short bullets; only what a team needs to start.",
  agile: "Agile: epics and user stories with Given/When/Then acceptance criteria, and a sprint-sized plan.",
};

/** The PRD from the project's question/answer pairs and template. */
export function generatePrdPrompt(input: { style: PrdStyle; qaPairs: QaPair[] }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  const sections = ctx.template?.sections ?? [];
  const transcript = input.qaPairs.length
    ? input.qaPairs.map((p, i) => `Q${i + 1}: ${p.question}\nA${i + 1}: ${p.answer}`).join("\n\n")
    : "(No questions have been answered yet: write the best outline you can from the project name and description, and list what is missing as open questions.)";
  return {
    system: system("You are a senior product manager writing a PRD from an interview with the product's owner.", ctx, [
      GROUNDING,
      `Style — ${STYLE[input.style]}`,
      sections.length
        ? `Output Markdown: one H1 title, then exactly these H2 sections in this order: ${sections.join("; ")}.`
        : "Output Markdown: one H1 title, then H2 sections suited to the style (problem, goals and success metrics, users, requirements, scope, risks, open questions at least).",
      "Give goals measurable targets only when the interview states them; otherwise write the goal and add the missing number to open questions.",
      ...(documentBlock(ctx)
        ? [
            `${documentBlock(ctx)}\nKeep its content, in its words, wherever the interview does not replace it; never drop a fact, number, persona or mitigation it states.`,
          ]
        : []),
      "No preamble and no closing remarks: the answer is the document.",
    ]),
    messages: [{ role: "user", content: clip(`Interview transcript:\n\n${transcript}\n\nWrite the PRD.`) }],
    maxTokens: input.style === "lean" ? 3000 : 8000,
  };
}
