import type { TaskContext } from "../context.server";
import type { ModelRequest } from "../types";
import { clip, system } from "./shared";
import { DIMENSIONS_TEXT, SCALE } from "./scale";

/** Project score (POST /api/projects/{id}/score), answered as JSON. */
export function scorePrompt(input: { prdContent: string }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  return {
    system: system("You score PRDs for quality, consistently and strictly.", ctx, [
      SCALE,
      `breakdown scores each of: ${DIMENSIONS_TEXT}. feedback gives one specific sentence per dimension saying what would raise its score.`,
      "overallScore is the mean of the breakdown, rounded.",
    ]),
    messages: [{ role: "user", content: clip(`PRD:\n\n${input.prdContent}`) }],
    maxTokens: 1500,
  };
}
