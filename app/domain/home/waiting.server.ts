import { sql } from "kysely";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import { TRIGGER_LABELS } from "../approvals/approvals.schema";
import { readableProjects } from "../projects/access.server";
import { statusRank } from "../projects/projects.schema";

/**
 * "Waiting for you" on the Home page (docs/ui.md, "Home"): what someone has
 * to act on, each kind from an index that starts with the organization or
 * the person, at most `SHOWN` of each with its total.
 */

export const SHOWN = 5;
/** How long a decided stakeholder review stays on the owner's Home. */
export const REVIEW_DAYS = 14;

const DAY_MS = 86_400_000;

/**
 * Approval requests the actor may decide now: pending, in their organization,
 * naming them as an approver, not their own unless the workflow allows it, not
 * yet decided by them (the rule of listApprovals' `canDecide`). Walks the
 * organization's pending requests (approvalRequests_org_status).
 */
export async function approvalsToDecide(actor: Actor) {
  const me = actor.user.id;
  const base = db
    .selectFrom("approvalRequests as r")
    .innerJoin("approvalWorkflows as w", "w.id", "r.workflowId")
    .where("r.orgId", "=", actor.org.id)
    .where("r.status", "=", "pending")
    .where(sql<boolean>`EXISTS (SELECT 1 FROM json_each(w.approverIds) AS j WHERE j.value = ${me})`)
    .where((eb) => eb.or([eb("w.allowSelfApproval", "=", 1), eb("r.requestedById", "is", null), eb("r.requestedById", "!=", me)]))
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom("approvalDecisions as d").select(eb.lit(1).as("one")).whereRef("d.requestId", "=", "r.id").where("d.userId", "=", me))),
    );
  const [rows, count] = await Promise.all([
    base
      .leftJoin("users as u", "u.id", "r.requestedById")
      .select(["r.id", "r.triggerType", "r.targetType", "r.targetId", "r.targetLabel", "r.createdAt", "u.name as requesterName"])
      .orderBy("r.createdAt", "desc")
      .orderBy("r.id", "desc")
      .limit(SHOWN)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    items: rows.map((r) => ({
      id: r.id,
      title: `${TRIGGER_LABELS[r.triggerType]}: ${r.targetLabel}`,
      requestedBy: r.requesterName,
      createdAt: r.createdAt,
      /** Decisions are made on the Approvals page. */
      link: "/approvals",
    })),
  };
}

/** Projects assigned to the actor that are in review, latest change first, from the assignee's projects (projects_org_assignee). */
export async function assignedInReview(actor: Actor) {
  const base = db
    .selectFrom("projects as p")
    .where(readableProjects(actor))
    .where("p.assignedToId", "=", actor.user.id)
    // `+`: filter the assignee's rows by status rather than walk every project in review (keeps projects_org_assignee).
    .where(sql<number>`+p.statusRank`, "=", statusRank("IN_REVIEW"));
  const [rows, count] = await Promise.all([
    base.select(["p.id", "p.name", "p.status", "p.updatedAt"]).orderBy("p.updatedAt", "desc").orderBy("p.seq", "desc").limit(SHOWN).execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    items: rows.map((p) => ({ id: p.id, name: p.name, status: p.status, updatedAt: p.updatedAt, link: `/projects/${p.id}` })),
  };
}

/**
 * Stakeholder reviews approved or rejected in the last REVIEW_DAYS days on
 * projects the actor created, or that they requested: newest decision first,
 * read from the decided reviews of that window only (stakeholderViews_resolved).
 */
export async function reviewsResolved(actor: Actor, now = Date.now()) {
  const me = actor.user.id;
  const since = new Date(now - REVIEW_DAYS * DAY_MS).toISOString();
  const base = db
    .selectFrom("stakeholderViews as v")
    // CROSS JOIN: SQLite keeps the reviews (the window's) as the outer loop instead of walking the organization's projects.
    .crossJoin("projects as p")
    .whereRef("p.id", "=", "v.projectId")
    .where("v.resolvedAt", ">=", since)
    .where("v.reviewStatus", "in", ["approved", "rejected"])
    .where(readableProjects(actor))
    .where((eb) => eb.or([eb("p.createdById", "=", me), eb("v.createdById", "=", me)]));
  const [rows, count] = await Promise.all([
    base
      .select(["v.id", "v.name", "v.reviewStatus", "v.resolvedAt", "v.resolvedByName", "p.id as projectId", "p.name as projectName"])
      .orderBy("v.resolvedAt", "desc")
      .orderBy("v.id", "desc")
      .limit(SHOWN)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    items: rows.map((v) => ({
      id: v.id,
      name: v.name,
      status: v.reviewStatus as "approved" | "rejected",
      resolvedBy: v.resolvedByName,
      resolvedAt: v.resolvedAt!,
      project: { id: v.projectId, name: v.projectName },
      /** Reviews are listed, and asked again, on the project's Sharing tab. */
      link: `/projects/${v.projectId}/sharing`,
    })),
  };
}
