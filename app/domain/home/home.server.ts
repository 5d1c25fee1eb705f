import { db } from "~/db.server";
import { type Actor, WRITER_ROLES } from "../actor";
import { readableProjects } from "../projects/access.server";
import { listProjects } from "../projects/list.server";
import { listProjectsSchema } from "../projects/projects.schema";
import { recentMentions } from "./mentions.server";
import { approvalsToDecide, assignedInReview, REVIEW_DAYS, reviewsResolved, SHOWN } from "./waiting.server";

/**
 * Everything the Home page shows besides onboarding (docs/ui.md, "Home"), for
 * one person in their current organization: a handful of LIMITed queries,
 * each on an index that starts with the organization or the person, so the
 * page costs the same in an organization of 10,000 projects. Every project
 * listed passes `readableProjects` (a viewer sees only the projects shared
 * with them); nothing of another organization is read.
 */
export async function homeFeed(actor: Actor) {
  const [resume, recent, approvals, assigned, reviews, mentions] = await Promise.all([
    continueWhereLeftOff(actor),
    listProjects(actor, listProjectsSchema.parse({ sortBy: "updatedAt", limit: SHOWN })),
    approvalsToDecide(actor),
    assignedInReview(actor),
    reviewsResolved(actor),
    recentMentions(actor),
  ]);
  return {
    canCreateProjects: WRITER_ROLES.includes(actor.role),
    continue: resume,
    recent: {
      total: recent.total,
      projects: recent.projects.map((p) => ({ id: p.id, name: p.name, status: p.status, updatedAt: p.updatedAt, link: `/projects/${p.id}` })),
    },
    waiting: { total: approvals.total + assigned.total + reviews.total, approvals, assigned, reviews, reviewDays: REVIEW_DAYS },
    mentions,
  };
}
export type HomeFeed = Awaited<ReturnType<typeof homeFeed>>;

/** How many projects "Continue where you left off" offers. */
const RESUME = 3;
/** How many of the person's latest changes are read to find them (one project often has several in a row). */
const RESUME_SCAN = 40;

/**
 * The projects the actor changed last, newest first, from their own activity
 * (projectActivity_actor): every save of the PRD (by hand, generated or live),
 * version, comment, file, status change and builder conversation writes one
 * row. Views are not recorded anywhere, so a project only read does not show.
 * The link leads back to where the change was made: the AI builder for a
 * builder conversation, the project's Document otherwise.
 */
async function continueWhereLeftOff(actor: Actor) {
  const rows = await db
    .selectFrom("projectActivity as a")
    // CROSS JOIN keeps the person's own activity (projectActivity_actor) as the outer loop.
    .crossJoin("projects as p")
    .whereRef("p.id", "=", "a.projectId")
    .select(["a.projectId", "a.action", "a.summary", "a.createdAt", "p.name", "p.status"])
    .where("a.actorId", "=", actor.user.id)
    .where(readableProjects(actor))
    .orderBy("a.createdAt", "desc")
    .limit(RESUME_SCAN)
    .execute();
  const seen = new Set<string>();
  const items = [];
  for (const r of rows) {
    if (seen.has(r.projectId)) continue;
    seen.add(r.projectId);
    const inBuilder = r.action.startsWith("conversation.");
    items.push({
      project: { id: r.projectId, name: r.name, status: r.status },
      lastChange: r.summary,
      at: r.createdAt,
      link: inBuilder ? `/projects/${r.projectId}/builder` : `/projects/${r.projectId}`,
      linkLabel: inBuilder ? "Open the AI builder" : "Open the document",
    });
    if (items.length === RESUME) break;
  }
  return items;
}
