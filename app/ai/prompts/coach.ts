import type { TaskContext } from "../context.server";
import type { ModelRequest } from "../types";
import { clip, system } from "./shared";
import { DIMENSIONS_TEXT, SCALE } from "./scale";

/** Coach review (POST /api/ai/coach), answered as JSON. */
export function coachPrompt(input: { prdContent: string; projectName?: string }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  return {
    system: system("You are a demanding head of product reviewing a PRD before engineering starts.", ctx, [
      SCALE,
      `Score each dimension: ${DIMENSIONS_TEXT}; overallScore is your overall judgement.`,
      "executiveSummary: three sentences a busy executive can act on.",
      "strengths: what is genuinely good, citing sections. improvements: concrete, each with a priority (high, medium, low).",
      "missingSections: sections a PRD of this kind needs but lacks. recommendations: next steps, each with effort and impact (low, medium, high).",
    ]),
    messages: [{ role: "user", content: clip(`PRD${input.projectName ? ` for “${input.projectName}”` : ""}:\n\n${input.prdContent}`) }],
    maxTokens: 3000,
  };
}
