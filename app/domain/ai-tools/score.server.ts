import { offlineDrafter } from "~/ai/builtin/offline.server";
import { loadTaskContext } from "~/ai/context.server";
import { scorePrompt } from "~/ai/prompts/score";
import { asAppError, prepareAi } from "~/ai/run.server";
import { type ScoreResult, scoreSchema } from "~/ai/schemas";
import type { ProviderId } from "~/ai/types";
import { db } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { AppError } from "../errors";
import { recordChange } from "../projects/activity.server";
import { projectAccess, requireEdit, type Viewer } from "../projects/access.server";

/**
 * The project's PRD quality score: a six-part breakdown (clarity,
 * completeness, user focus, technical feasibility, metrics, risk
 * assessment), feedback per part and an overall score, each 0–100. Every
 * scoring is kept, so the score has a history.
 */

function present(row: {
  id: string;
  overallScore: number;
  breakdown: string;
  feedback: string;
  prdVersionId: string | null;
  model: string;
  createdAt: string;
}) {
  return {
    id: row.id,
    overallScore: row.overallScore,
    breakdown: JSON.parse(row.breakdown) as ScoreResult["breakdown"],
    feedback: JSON.parse(row.feedback) as ScoreResult["feedback"],
    prdVersionId: row.prdVersionId,
    model: row.model,
    createdAt: row.createdAt,
  };
}
export type ProjectScore = ReturnType<typeof present>;

export async function scoreProject(actor: Actor, projectId: string, input: { provider?: ProviderId }, signal?: AbortSignal) {
  const { project } = await requireEdit(actor, projectId);
  const prd = await db.selectFrom("prds").select(["content", "currentVersionId"]).where("projectId", "=", project.id).executeTakeFirst();
  if (!prd || !prd.content.trim()) {
    throw new AppError("NOT_FOUND", 404, "This project has no PRD to score yet; write or generate one first");
  }
  const ctx = await loadTaskContext(actor.user.id, project);
  const ai = await prepareAi({ actor, task: "score", projectId: project.id, provider: input.provider });
  let result;
  try {
    result = await ai.completeJson(
      {
        name: "prd_score",
        description: "Quality score of the PRD with a six-part breakdown",
        schema: scoreSchema,
        prompt: () => scorePrompt({ prdContent: prd.content }, ctx),
        builtin: () => offlineDrafter.score({ prdContent: prd.content }, ctx),
      },
      signal,
    );
  } catch (error) {
    throw asAppError(error);
  }
  const row = {
    id: newId(),
    projectId: project.id,
    overallScore: Math.round(result.value.overallScore),
    breakdown: JSON.stringify(result.value.breakdown),
    feedback: JSON.stringify(result.value.feedback),
    prdVersionId: prd.currentVersionId,
    model: result.model,
    createdById: actor.user.id,
    createdAt: nowIso(),
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("projectScores").values(row).execute();
    await recordChange(trx, {
      project,
      actor,
      action: "project.scored",
      summary: `${actor.user.name} scored the PRD: ${row.overallScore}/100`,
      data: { scoreId: row.id, overallScore: row.overallScore },
    });
  });
  return { score: present(row), provider: result.provider, keySource: result.keySource };
}

/** The latest score with the history of earlier ones (newest first). */
export async function getProjectScore(viewer: Viewer, projectId: string) {
  const { project } = await projectAccess(viewer, projectId);
  const rows = await db
    .selectFrom("projectScores")
    .selectAll()
    .where("projectId", "=", project.id)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(50)
    .execute();
  const history = rows.map(present);
  return {
    score: history[0] ?? null,
    history: history.map((s) => ({ id: s.id, overallScore: s.overallScore, breakdown: s.breakdown, model: s.model, createdAt: s.createdAt })),
  };
}
