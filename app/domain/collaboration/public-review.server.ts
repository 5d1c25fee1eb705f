import { db } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import { AppError, forbidden, notFound } from "../errors";
import type { ShareViewer } from "../projects/access.server";
import { recordChange } from "../projects/activity.server";
import { resolveShare } from "../sharing/share-access.server";
import type { ResolveReviewInput } from "./collaboration.schema";
import { assertMissesAllowed, countMiss, findByReviewToken, hitDecision, openReviewLink } from "./review-links.server";
import { presentView, type ViewRow } from "./view-presenter.server";

/**
 * Deciding review requests without an account. Two keys open them:
 * - a **personal review link** (review-links.server.ts): one request, decided
 *   under the reviewer named on it (`resolvedVia: personal_link`);
 * - the project's **share link** (and its password): every request of the
 *   project not marked `personalLinkOnly`, under whatever name the visitor
 *   types (`resolvedVia: share_link`, unverified).
 * `token` may be either; a personal token is looked up first.
 */

/** A token (and the share link's password, when it has one) standing in for a signed-in actor. */
export interface ShareCredentials {
  token: string;
  password: string | null;
}

/** Where the request came from, for the per-IP limit on tokens that match nothing. */
export interface PublicRequest {
  ip?: string | null;
}

/** The share link behind a token that is not a personal link; a token that is neither counts as a miss. */
async function shareFor(credentials: ShareCredentials, request: PublicRequest) {
  assertMissesAllowed(request.ip);
  try {
    return await resolveShare(credentials.token, credentials.password);
  } catch (error) {
    if (error instanceof AppError && error.code === "INVALID_TOKEN") countMiss(request.ip);
    throw error;
  }
}

async function projectSummary(projectId: string) {
  const project = await db.selectFrom("projects").select(["id", "name", "status"]).where("id", "=", projectId).executeTakeFirst();
  if (!project) throw notFound("Project");
  return project;
}

/**
 * With a personal token: its project and that one request. With the share
 * token: the shared project and all its review requests, oldest first,
 * without links or e-mail addresses.
 */
export async function reviewsByToken(credentials: ShareCredentials, request: PublicRequest = {}) {
  const personal = await findByReviewToken(credentials.token);
  if (personal) return { project: await projectSummary(personal.projectId), reviews: [presentView(personal, "reviewer")] };
  const share = await shareFor(credentials, request);
  const project = await projectSummary(share.projectId);
  const rows = await db
    .selectFrom("stakeholderViews")
    .selectAll()
    .where("projectId", "=", project.id)
    .where("reviewStatus", "is not", null)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc")
    .execute();
  return { project, reviews: rows.map((r) => presentView(r, "shareLink")) };
}

/**
 * Approves or rejects a review request. A decided review may be decided
 * again: the latest decision (with its feedback) wins, and each one is
 * recorded in the activity feed and as a `review.resolved` event.
 * - Personal token: `reviewId` must be its own request (else 404); the
 *   decision is the named reviewer's, confirmed by e-mail when the link had
 *   been mailed; `reviewerName` is ignored. At most 20 a minute per link.
 * - Share token: as before, under `reviewerName`; a `personalLinkOnly`
 *   request is 403.
 */
export async function resolveReview(credentials: ShareCredentials, input: Omit<ResolveReviewInput, "token">, request: PublicRequest = {}) {
  const personal = await findByReviewToken(credentials.token);
  if (personal) {
    if (personal.id !== input.reviewId) throw notFound("Review");
    hitDecision(personal.id);
    return decide(personal.projectId, input.reviewId, (row) => ({
      resolvedByName: row.stakeholderName,
      resolvedVia: "personal_link" as const,
      resolvedByEmail: row.reviewLinkSentAt ? row.reviewLinkSentTo : null,
      feedback: input.feedback ?? null,
      status: input.status,
    }));
  }
  const share = await shareFor(credentials, request);
  return decide(share.projectId, input.reviewId, (row) => {
    if (row.personalLinkOnly === 1) {
      throw forbidden(
        `${row.stakeholderName ? `${row.stakeholderName} reviews` : "This review is answered"} through a personal review link, not the share link. Use the link the team sent${row.stakeholderName ? " them" : ""}.`,
      );
    }
    return {
      resolvedByName: input.reviewerName ?? null,
      resolvedVia: "share_link" as const,
      resolvedByEmail: null,
      feedback: input.feedback ?? null,
      status: input.status,
    };
  });
}

type Decision = Pick<ViewRow, "resolvedByName" | "resolvedVia" | "resolvedByEmail" | "feedback"> & { status: "approved" | "rejected" };

async function decide(projectId: string, reviewId: string, decisionFor: (row: ViewRow) => Decision) {
  return db.transaction().execute(async (trx) => {
    const project = await trx.selectFrom("projects").select(["id", "orgId"]).where("id", "=", projectId).executeTakeFirst();
    if (!project) throw notFound("Project");
    const row = await trx
      .selectFrom("stakeholderViews")
      .selectAll()
      .where("id", "=", reviewId)
      .where("projectId", "=", project.id)
      .where("reviewStatus", "is not", null)
      .executeTakeFirst();
    if (!row) throw notFound("Review");
    const { status, ...decision } = decisionFor(row);
    const now = nowIso();
    const changes = { ...decision, reviewStatus: status, resolvedAt: now, updatedAt: now };
    await trx.updateTable("stakeholderViews").set(changes).where("id", "=", row.id).execute();
    const who = decision.resolvedByName ?? (decision.resolvedVia === "personal_link" ? "The reviewer" : "A stakeholder");
    const how = decision.resolvedVia === "personal_link" ? " (personal review link)" : "";
    await recordChange(trx, {
      project,
      actor: null,
      actorName: who,
      action: "review.resolved",
      summary: `${who} ${status} “${row.name}”${how}${decision.feedback ? `: ${truncate(decision.feedback, 140)}` : ""}`,
      data: { reviewId: row.id, status },
      event: "review.resolved",
    });
    return presentView({ ...row, ...changes }, decision.resolvedVia === "personal_link" ? "reviewer" : "shareLink");
  });
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * What the personal review page shows: the request (as its reviewer sees it)
 * and a read-only viewer of its project, to load the PRD with. Unknown
 * token: 404.
 */
export async function personalReview(token: string, request: PublicRequest = {}) {
  const row = await openReviewLink(token, request);
  const viewer: ShareViewer = { via: "share", projectId: row.projectId, orgId: row.orgId };
  const requester = row.createdById ? await db.selectFrom("users").select("name").where("id", "=", row.createdById).executeTakeFirst() : undefined;
  return { viewer, orgId: row.orgId, requestedBy: requester?.name ?? null, review: presentView(row, "reviewer") };
}
