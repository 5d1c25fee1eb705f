import { z } from "zod/v4";
import type { TaskContext } from "../context.server";
import type { ModelRequest } from "../types";
import { clip, GROUNDING, system } from "./shared";

/** Analysis of an uploaded document (POST /api/upload/document), answered as JSON. */
export const documentAnalysisSchema = z.object({
  title: z.string().describe("The document's own title, or a short title from its subject"),
  summary: z.string().describe("Two or three sentences: what the document proposes and for whom"),
  sections: z.array(z.object({ title: z.string(), summary: z.string() })).describe("The document's sections in order, each with a one-sentence summary"),
  requirements: z.array(z.string()).describe("Requirements the document states (must, should, shall, need, will), quoted or closely paraphrased"),
  questions: z.array(z.string()).describe("Open questions: ones the document asks, and gaps a PRD would need answered"),
});
export type DocumentAnalysisDraft = z.infer<typeof documentAnalysisSchema>;

export function documentAnalysisPrompt(input: { text: string; filename: string }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  return {
    system: system(
      "You read source documents (briefs, notes, specifications) that a product team wants to turn into a PRD.",
      ctx,
      [
        GROUNDING,
        "title: the document's own title when it has one.",
        "sections: the document's headings in order (at most 30); when it has none, name the topics it covers.",
        "requirements: at most 25, each one sentence, as the document states them; never add your own.",
        "questions: at most 15: questions the document leaves open, and what a PRD would still need (users, success metrics, scope, timeline) when the document is silent on it.",
      ],
      { template: false },
    ),
    messages: [{ role: "user", content: clip(`Document “${input.filename}”:\n\n${input.text}`) }],
    maxTokens: 2500,
  };
}
