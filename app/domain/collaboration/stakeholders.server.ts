import type { Selectable } from "kysely";
import type { StakeholderViewsTable } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { notFound } from "../errors";
import { projectAccess, requireManage } from "../projects/access.server";
import { recordChange } from "../projects/activity.server";
import { resolveShare } from "../sharing/share-access.server";
import type { CreateViewInput, ResolveReviewInput } from "./collaboration.schema";

/**
 * Stakeholder views: a tailored reading of the PRD for one person or
 * audience. With `requestReview` the view is also a review request
 * (reviewStatus pending) that the stakeholder approves or rejects through the
 * project's share link, without an account.
 */

type ViewRow = Selectable<StakeholderViewsTable>;

function present(r: ViewRow) {
  return {
    id: r.id,
    name: r.name,
    stakeholderName: r.stakeholderName,
    stakeholderEmail: r.stakeholderEmail,
    audience: r.audience,
    sections: JSON.parse(r.sections) as string[],
    notes: r.notes,
    kind: r.kind,
    /** For AI coach reviews (`kind: "ai_review"`): `{review, model}`. */
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    reviewStatus: r.reviewStatus,
    feedback: r.feedback,
    resolvedAt: r.resolvedAt,
    resolvedByName: r.resolvedByName,
    createdAt: r.createdAt,
  };
}
export type ViewOut = ReturnType<typeof present>;

export async function listViews(actor: Actor, projectId: string) {
  const { project } = await projectAccess(actor, projectId);
  const rows = await db
    .selectFrom("stakeholderViews")
    .selectAll()
    .where("projectId", "=", project.id)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc")
    .execute();
  return rows.map(present);
}

export async function createView(actor: Actor, projectId: string, input: CreateViewInput) {
  return db.transaction().execute(async (trx) => {
    const { project } = await requireManage(actor, projectId, trx);
    const now = nowIso();
    const row: ViewRow = {
      id: newId(),
      projectId: project.id,
      name: input.name,
      stakeholderName: input.stakeholderName ?? null,
      stakeholderEmail: input.stakeholderEmail ? input.stakeholderEmail.toLowerCase() : null,
      audience: input.audience ?? null,
      sections: JSON.stringify(input.sections ?? []),
      notes: input.notes ?? null,
      kind: input.requestReview ? "review" : "view",
      payload: "{}",
      reviewStatus: input.requestReview ? "pending" : null,
      feedback: null,
      resolvedAt: null,
      resolvedByName: null,
      createdById: actor.user.id,
      createdAt: now,
      updatedAt: now,
    };
    await trx.insertInto("stakeholderViews").values(row).execute();
    await recordChange(trx, {
      project,
      actor,
      action: "stakeholder_view.created",
      summary: input.requestReview
        ? `${actor.user.name} asked ${row.stakeholderName ?? "a stakeholder"} to review “${row.name}”`
        : `${actor.user.name} created the stakeholder view “${row.name}”`,
      data: { viewId: row.id, name: row.name, reviewStatus: row.reviewStatus },
    });
    return present(row);
  });
}

/** Keeps an AI coach review with the project as a stakeholder view (`kind: "ai_review"`). */
export async function saveAiReview(
  trx: Executor,
  input: { project: { id: string; orgId: string }; actor: Actor; review: { overallScore: number }; model: string },
) {
  const now = nowIso();
  const row: ViewRow = {
    id: newId(),
    projectId: input.project.id,
    name: `AI coach review: ${Math.round(input.review.overallScore)}/100`,
    stakeholderName: input.model === "builtin" ? "Offline drafter" : `AI coach (${input.model})`,
    stakeholderEmail: null,
    audience: "AI coach",
    sections: "[]",
    notes: null,
    kind: "ai_review",
    payload: JSON.stringify({ review: input.review, model: input.model }),
    reviewStatus: null,
    feedback: null,
    resolvedAt: null,
    resolvedByName: null,
    createdById: input.actor.user.id,
    createdAt: now,
    updatedAt: now,
  };
  await trx.insertInto("stakeholderViews").values(row).execute();
  await recordChange(trx, {
    project: input.project,
    actor: input.actor,
    action: "stakeholder_view.created",
    summary: `${input.actor.user.name} saved an AI coach review (${Math.round(input.review.overallScore)}/100)`,
    data: { viewId: row.id, name: row.name, kind: row.kind },
  });
  return present(row);
}

export async function deleteView(actor: Actor, projectId: string, viewId: string) {
  await db.transaction().execute(async (trx) => {
    const { project } = await requireManage(actor, projectId, trx);
    const row = await trx
      .selectFrom("stakeholderViews")
      .select(["id", "name"])
      .where("id", "=", viewId)
      .where("projectId", "=", project.id)
      .executeTakeFirst();
    if (!row) throw notFound("Stakeholder view");
    await trx.deleteFrom("stakeholderViews").where("id", "=", row.id).execute();
    await recordChange(trx, {
      project,
      actor,
      action: "stakeholder_view.deleted",
      summary: `${actor.user.name} deleted the stakeholder view “${row.name}”`,
      data: { viewId: row.id, name: row.name },
    });
  });
}

// ------------------------------------------------------------ public review

/** The share link (and its password, when it has one) stands in for a signed-in actor. */
export interface ShareCredentials {
  token: string;
  password: string | null;
}

/** The shared project and its review requests (views with a review status), oldest first. */
export async function reviewsByToken(credentials: ShareCredentials) {
  const share = await resolveShare(credentials.token, credentials.password);
  const project = await db
    .selectFrom("projects")
    .select(["id", "name", "status"])
    .where("id", "=", share.projectId)
    .executeTakeFirst();
  if (!project) throw notFound("Project");
  const rows = await db
    .selectFrom("stakeholderViews")
    .selectAll()
    .where("projectId", "=", project.id)
    .where("reviewStatus", "is not", null)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc")
    .execute();
  return { project, reviews: rows.map(present) };
}

/**
 * Approves or rejects a review request. A decided review may be decided
 * again: the latest decision (with its feedback) wins, and each one is
 * recorded in the activity feed and as a `review.resolved` event.
 */
export async function resolveReview(credentials: ShareCredentials, input: Omit<ResolveReviewInput, "token">) {
  const share = await resolveShare(credentials.token, credentials.password);
  return db.transaction().execute(async (trx) => {
    const project = await trx
      .selectFrom("projects")
      .select(["id", "orgId"])
      .where("id", "=", share.projectId)
      .executeTakeFirst();
    if (!project) throw notFound("Project");
    const row = await trx
      .selectFrom("stakeholderViews")
      .selectAll()
      .where("id", "=", input.reviewId)
      .where("projectId", "=", project.id)
      .where("reviewStatus", "is not", null)
      .executeTakeFirst();
    if (!row) throw notFound("Review");
    const now = nowIso();
    const changes = {
      reviewStatus: input.status,
      feedback: input.feedback ?? null,
      resolvedAt: now,
      resolvedByName: input.reviewerName ?? null,
      updatedAt: now,
    };
    await trx.updateTable("stakeholderViews").set(changes).where("id", "=", row.id).execute();
    const who = input.reviewerName ?? "A stakeholder";
    await recordChange(trx, {
      project,
      actor: null,
      actorName: who,
      action: "review.resolved",
      summary: `${who} ${input.status} “${row.name}”${input.feedback ? `: ${truncate(input.feedback, 140)}` : ""}`,
      data: { reviewId: row.id, status: input.status },
      event: "review.resolved",
    });
    return present({ ...row, ...changes });
  });
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
