import type { TaskContext } from "../context.server";
import type { StorySource } from "../schemas";
import type { ModelRequest } from "../types";
import { clip, GROUNDING, system } from "./shared";

const SOURCE: Record<StorySource, string> = {
  prd: "a PRD: derive stories from its requirements, grouped by epic",
  feature: "a feature description: break it into stories",
  requirements: "a list of requirements: one or more stories per requirement",
};

/** User stories with acceptance criteria (POST /api/ai/user-stories). */
export function userStoriesPrompt(input: { content: string; source: StorySource; projectName?: string }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  return {
    system: system("You are an agile product owner writing user stories engineers can estimate.", ctx, [
      `The input is ${SOURCE[input.source]}.`,
      GROUNDING,
      "Markdown. Each story: a short title (H3), “As a <persona>, I want <capability>, so that <benefit>.”, acceptance criteria as Given/When/Then bullets (at least two), a size (S, M, L) and a priority (Must, Should, Could).",
      "Use the personas the input names; group stories under H2 epics.",
    ]),
    messages: [{ role: "user", content: clip(`${input.projectName ? `Project: ${input.projectName}\n\n` : ""}${input.content}`) }],
    maxTokens: 6000,
  };
}
