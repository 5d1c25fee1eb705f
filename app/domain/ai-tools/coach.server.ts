import { offlineDrafter } from "~/ai/builtin/offline.server";
import { loadTaskContext } from "~/ai/context.server";
import type { Producer } from "~/ai/events";
import { coachPrompt } from "~/ai/prompts/coach";
import { prepareAi } from "~/ai/run.server";
import { DIMENSION_LABELS, DIMENSIONS, type Review, reviewSchema } from "~/ai/schemas";
import { chunkText } from "~/ai/text";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import { saveAiReview } from "../collaboration/stakeholders.server";
import { requireManage } from "../projects/access.server";
import type { CoachInput } from "./ai-tools.schema";

/** The review as a short Markdown report (the streamed content of the coach). */
export function reviewMarkdown(review: Review) {
  const lines = [`**Overall: ${Math.round(review.overallScore)}/100**`, "", review.executiveSummary, ""];
  lines.push(...DIMENSIONS.map((d) => `- ${DIMENSION_LABELS[d]}: ${Math.round(review.dimensions[d])}/100`), "");
  if (review.strengths.length) lines.push("**Strengths**", ...review.strengths.map((s) => `- ${s}`), "");
  if (review.improvements.length) lines.push("**Improve**", ...review.improvements.map((i) => `- (${i.priority}) ${i.suggestion}`), "");
  if (review.missingSections.length) lines.push(`**Missing sections:** ${review.missingSections.join(", ")}`, "");
  return lines.join("\n");
}

/**
 * The PRD coach: a structured review (scores per dimension, strengths,
 * improvements, missing sections, recommendations). Streams progress and a
 * readable summary; the final `done` carries `review`. With `projectId` the
 * review is saved as a stakeholder view of that project.
 */
export async function startCoach(actor: Actor, input: CoachInput): Promise<Producer> {
  const project = input.projectId ? (await requireManage(actor, input.projectId)).project : null;
  const ctx = { ...(await loadTaskContext(actor.user.id, project)), ...(project ? {} : { projectName: input.projectName }) };
  const ai = await prepareAi({ actor, task: "coach", projectId: project?.id, provider: input.provider });
  return async function* (signal) {
    yield { type: "progress", phase: "reviewing", percent: 10 };
    const answer = await ai.completeJson(
      {
        name: "prd_review",
        description: "A structured review of the PRD",
        schema: reviewSchema,
        prompt: () => coachPrompt({ prdContent: input.prdContent, projectName: input.projectName ?? ctx.projectName }, ctx),
        builtin: () => offlineDrafter.coach({ prdContent: input.prdContent }, ctx),
      },
      signal,
    );
    const review = answer.value;
    yield { type: "progress", phase: "summarising", percent: 90 };
    const summary = reviewMarkdown(review);
    for (const piece of chunkText(summary)) yield { type: "content", content: piece };
    const view = project ? await db.transaction().execute((trx) => saveAiReview(trx, { project, actor, review, model: answer.model })) : null;
    yield { type: "done", fullContent: summary, review, stakeholderViewId: view?.id ?? null, ...ai.answered };
  };
}
