import type { TaskContext } from "../context.server";
import type { TeamSize } from "../schemas";
import type { ModelRequest } from "../types";
import { clip, GROUNDING, system } from "./shared";

const TEAM: Record<TeamSize, string> = {
  small: "a small team (2–4 people)",
  medium: "a medium team (5–10 people)",
  large: "a large team (more than 10 people, several squads)",
};

/** A delivery roadmap (POST /api/ai/roadmap), answered as JSON. */
export function roadmapPrompt(input: { prdContent: string; teamSize: TeamSize; methodology: string }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  return {
    system: system("You are a delivery lead planning how a team ships a PRD.", ctx, [
      `Plan for ${TEAM[input.teamSize]} working with ${input.methodology}.`,
      GROUNDING,
      "Phases are contiguous: each starts the week after the previous one ends (startWeek is 1-based); totalWeeks is the end of the last phase.",
      "Milestones sit inside their phase, with success criteria taken from the PRD's goals where possible. Tasks name the PRD's requirements, with estimates in days and the role that does them.",
      "risks: delivery risks from the PRD.",
    ]),
    messages: [{ role: "user", content: clip(`PRD:\n\n${input.prdContent}`) }],
    maxTokens: 4000,
  };
}
