import { db, type Executor } from "~/db.server";
import { decrypt } from "~/utils/crypto.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { notFound, validationError } from "../errors";
import { projectAccess, requireManage } from "../projects/access.server";
import { recordChange } from "../projects/activity.server";
import type { CreateViewInput } from "./collaboration.schema";
import { issueReviewToken, mailReviewLink } from "./review-links.server";
import { presentView, type ViewRow } from "./view-presenter.server";
import { announceReviewRequest } from "../slack/messages.server";

/**
 * Stakeholder views: a tailored reading of the PRD for one person or
 * audience. With `requestReview` the view is also a review request
 * (reviewStatus pending) with its own personal review link
 * (review-links.server.ts); the stakeholder approves or requests changes
 * there, or through the project's share link unless `personalLinkOnly`
 * (public-review.server.ts).
 */

export async function listViews(actor: Actor, projectId: string) {
  const { project, canManage } = await projectAccess(actor, projectId);
  const rows = await db
    .selectFrom("stakeholderViews")
    .selectAll()
    .where("projectId", "=", project.id)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc")
    .execute();
  return rows.map((r) => presentView(r, canManage ? "manager" : "reader"));
}

export async function createView(actor: Actor, projectId: string, input: CreateViewInput) {
  const review = input.requestReview;
  if (input.sendLink && !review) throw validationError("sendLink", "Only a review request has a link to send");
  if (input.sendLink && !input.stakeholderEmail) {
    throw validationError("stakeholderEmail", "Add the reviewer's e-mail address to send them the link");
  }
  return db.transaction().execute(async (trx) => {
    const { project } = await requireManage(actor, projectId, trx);
    const now = nowIso();
    const link = review ? issueReviewToken() : null;
    const row: ViewRow = {
      ...blankReviewColumns,
      id: newId(),
      projectId: project.id,
      name: input.name,
      stakeholderName: input.stakeholderName ?? null,
      stakeholderEmail: input.stakeholderEmail ? input.stakeholderEmail.toLowerCase() : null,
      audience: input.audience ?? null,
      sections: JSON.stringify(input.sections ?? []),
      notes: input.notes ?? null,
      kind: review ? "review" : "view",
      payload: "{}",
      reviewStatus: review ? "pending" : null,
      createdById: actor.user.id,
      createdAt: now,
      updatedAt: now,
      reviewTokenHash: link?.hash ?? null,
      reviewTokenEncrypted: link?.encrypted ?? null,
      personalLinkOnly: review && input.personalLinkOnly ? 1 : 0,
    };
    await trx.insertInto("stakeholderViews").values(row).execute();
    await recordChange(trx, {
      project,
      actor,
      action: "stakeholder_view.created",
      summary: review
        ? `${actor.user.name} asked ${row.stakeholderName ?? "a stakeholder"} to review “${row.name}”`
        : `${actor.user.name} created the stakeholder view “${row.name}”`,
      data: { viewId: row.id, name: row.name, reviewStatus: row.reviewStatus },
    });
    if (review)
      await announceReviewRequest(trx, {
        orgId: project.orgId,
        projectId: project.id,
        viewId: row.id,
        name: row.name,
        reviewer: row.stakeholderName ?? row.stakeholderEmail,
        who: actor.user.name,
      });
    if (input.sendLink && link && row.stakeholderEmail) {
      const sent = await mailReviewLink(trx, { actor, project, view: row, to: row.stakeholderEmail, token: link.token });
      row.reviewLinkSentAt = sent.sentAt;
      row.reviewLinkSentTo = sent.sentTo;
    }
    return presentView(row, "manager");
  });
}

/** The columns a new row starts with that only review decisions and links fill. */
const blankReviewColumns = {
  feedback: null,
  resolvedAt: null,
  resolvedByName: null,
  resolvedVia: null,
  resolvedByEmail: null,
  reviewTokenHash: null,
  reviewTokenEncrypted: null,
  reviewLinkSentAt: null,
  reviewLinkSentTo: null,
  personalLinkOnly: 0,
} satisfies Partial<ViewRow>;

/**
 * Mails a review request's personal link to its stakeholder e-mail again
 * ("Send again"). Needs the right to manage the project; a plain view or an
 * unknown id is 404, a request without an e-mail address 400.
 */
export async function sendReviewLink(actor: Actor, projectId: string, viewId: string) {
  return db.transaction().execute(async (trx) => {
    const { project } = await requireManage(actor, projectId, trx);
    const row = await trx
      .selectFrom("stakeholderViews")
      .selectAll()
      .where("id", "=", viewId)
      .where("projectId", "=", project.id)
      .where("reviewStatus", "is not", null)
      .executeTakeFirst();
    if (!row) throw notFound("Review request");
    if (!row.stakeholderEmail) {
      throw validationError("stakeholderEmail", "This review request has no e-mail address: copy its link and send it yourself");
    }
    let token = row.reviewTokenEncrypted ? decrypt(row.reviewTokenEncrypted) : null;
    if (!token) {
      // Made before links existed and never given one, or unreadable after a forced key rotation: a new link.
      const link = issueReviewToken();
      await trx.updateTable("stakeholderViews").set({ reviewTokenHash: link.hash, reviewTokenEncrypted: link.encrypted }).where("id", "=", row.id).execute();
      Object.assign(row, { reviewTokenHash: link.hash, reviewTokenEncrypted: link.encrypted });
      token = link.token;
    }
    const sent = await mailReviewLink(trx, { actor, project, view: row, to: row.stakeholderEmail, token });
    await recordChange(trx, {
      project,
      actor,
      action: "review.link_sent",
      summary: `${actor.user.name} e-mailed ${row.stakeholderName ?? "the stakeholder"} the review link for “${row.name}”`,
      data: { viewId: row.id, name: row.name },
    });
    return presentView({ ...row, reviewLinkSentAt: sent.sentAt, reviewLinkSentTo: sent.sentTo }, "manager");
  });
}

/** Keeps an AI coach review with the project as a stakeholder view (`kind: "ai_review"`). */
export async function saveAiReview(
  trx: Executor,
  input: { project: { id: string; orgId: string }; actor: Actor; review: { overallScore: number }; model: string },
) {
  const now = nowIso();
  const row: ViewRow = {
    ...blankReviewColumns,
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
  return presentView(row, "manager");
}

export async function deleteView(actor: Actor, projectId: string, viewId: string) {
  await db.transaction().execute(async (trx) => {
    const { project } = await requireManage(actor, projectId, trx);
    const row = await trx.selectFrom("stakeholderViews").select(["id", "name"]).where("id", "=", viewId).where("projectId", "=", project.id).executeTakeFirst();
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
