import type { Template, TemplateSubmissionsTable } from "#db/schema";
import type { Selectable } from "kysely";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { type Actor, isAdmin } from "../actor";
import { requireApprovalOrProceed } from "../approvals/requests.server";
import { AppError, forbidden, notFound, validationError } from "../errors";
import { emit } from "../events/events.server";
import type { AdminSubmissionsQuery, CreateSubmissionInput, ReviewInput } from "./submissions.schema";
import { canUse, writeVersion } from "./templates.server";

/**
 * Template submissions: a user offers one of their own templates (or, as an
 * owner/admin, one of the organization's) to the public marketplace; a
 * platform superadmin approves (a `marketplace` copy is published) or
 * rejects it with a reason. Statuses: pending, approved, rejected.
 */

type Submission = Selectable<TemplateSubmissionsTable>;

export function presentSubmission(s: Submission) {
  return {
    id: s.id,
    templateId: s.templateId,
    templateName: s.templateName,
    notes: s.notes,
    status: s.status,
    reason: s.reason,
    reviewedAt: s.reviewedAt,
    marketplaceTemplateId: s.marketplaceTemplateId,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

/** Whether the actor may offer this template to the marketplace. */
function canSubmit(actor: Actor, t: Template) {
  if (t.orgId !== actor.org.id) return false;
  if (t.templateType === "personal") return t.userId === actor.user.id;
  if (t.templateType === "organization") return isAdmin(actor);
  return false;
}

async function assertNoPendingSubmission(ex: Executor, templateId: string) {
  const pending = await ex
    .selectFrom("templateSubmissions")
    .select("id")
    .where("templateId", "=", templateId)
    .where("status", "=", "pending")
    .executeTakeFirst();
  if (pending) throw new AppError("CONFLICT", 409, "This template already has a submission waiting for review");
}

/** The template the actor may submit now (visible, theirs to submit, no submission pending). */
async function submittable(actor: Actor, ex: Executor, templateId: string) {
  const t = await ex.selectFrom("templates").selectAll().where("id", "=", templateId).executeTakeFirst();
  if (!t || !canUse(actor, t)) throw notFound("Template");
  if (!canSubmit(actor, t)) {
    throw forbidden(
      t.templateType === "organization"
        ? "Only owners and admins submit organization templates"
        : "You may submit only your own personal templates and your organization's templates",
    );
  }
  await assertNoPendingSubmission(ex, t.id);
  return t;
}

async function insertSubmission(trx: Executor, t: Template, orgId: string, submitterId: string | null, notes: string | null) {
  const now = nowIso();
  const row: Submission = {
    id: newId(),
    templateId: t.id,
    templateName: t.name,
    orgId,
    submitterId,
    notes,
    status: "pending",
    reason: null,
    reviewedById: null,
    reviewedAt: null,
    marketplaceTemplateId: null,
    createdAt: now,
    updatedAt: now,
  };
  await trx.insertInto("templateSubmissions").values(row).execute();
  await emit(trx, {
    orgId,
    name: "template.submitted",
    data: { submissionId: row.id, templateId: t.id, templateName: t.name },
    actorId: submitterId,
  });
  return row;
}

/**
 * POST /api/template-submissions: publishes the template to the marketplace
 * review queue. An active `template_publish` approval workflow (Enterprise)
 * holds it (202 APPROVAL_REQUIRED) until approved; see submitApprovedTemplate.
 */
export async function submitTemplate(actor: Actor, input: CreateSubmissionInput) {
  const t = await submittable(actor, db, input.templateId);
  await requireApprovalOrProceed(actor, "template_publish", { type: "template", id: t.id, label: t.name, payload: { notes: input.notes ?? null } });
  const submission = await db.transaction().execute(async (trx) => {
    const checked = await submittable(actor, trx, input.templateId);
    return insertSubmission(trx, checked, actor.org.id, actor.user.id, input.notes ?? null);
  });
  return presentSubmission(submission);
}

/** The executor of an approved `template_publish` request: submits the template as its requester. */
export async function submitApprovedTemplate(trx: Executor, request: { orgId: string; targetId: string; requestedById: string | null; payload: string }) {
  const t = await trx.selectFrom("templates").selectAll().where("id", "=", request.targetId).where("orgId", "=", request.orgId).executeTakeFirst();
  if (!t) throw new AppError("CONFLICT", 409, "The template no longer exists; reject the request instead");
  await assertNoPendingSubmission(trx, t.id);
  const { notes } = JSON.parse(request.payload || "{}") as { notes?: string | null };
  return presentSubmission(await insertSubmission(trx, t, request.orgId, request.requestedById, notes ?? null));
}

/** GET /api/template-submissions: the caller's own submissions, newest first. */
export async function listOwnSubmissions(actor: Actor) {
  const rows = await db
    .selectFrom("templateSubmissions")
    .selectAll()
    .where("submitterId", "=", actor.user.id)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(presentSubmission);
}

function requireSuperadmin(actor: Actor) {
  if (!actor.isSuperadmin) throw forbidden("Only platform superadmins review template submissions");
}

/** GET /api/admin/template-submissions: every submission, newest first, with its submitter. */
export async function adminListSubmissions(actor: Actor, q: AdminSubmissionsQuery) {
  requireSuperadmin(actor);
  let query = db.selectFrom("templateSubmissions as s");
  if (q.status) query = query.where("s.status", "=", q.status);
  const [rows, count] = await Promise.all([
    query
      .leftJoin("users as u", "u.id", "s.submitterId")
      .leftJoin("organizations as o", "o.id", "s.orgId")
      .selectAll("s")
      .select(["u.name as submitterName", "u.email as submitterEmail", "o.name as orgName"])
      .orderBy("s.createdAt", "desc")
      .orderBy("s.id", "desc")
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    submissions: rows.map((r) => ({
      ...presentSubmission(r),
      submitter: r.submitterId ? { id: r.submitterId, name: r.submitterName ?? "", email: r.submitterEmail ?? "" } : null,
      organization: r.orgId ? { id: r.orgId, name: r.orgName ?? "" } : null,
    })),
    total: Number(count.n),
    limit: q.limit,
    offset: q.offset,
  };
}

/** Publishes a copy of the submitted template as a public marketplace template. */
async function publish(trx: Executor, actor: Actor, source: Template, submitterId: string | null) {
  const now = nowIso();
  const template: Template = {
    id: newId(),
    orgId: null,
    userId: submitterId,
    name: source.name,
    description: source.description,
    category: source.category,
    templateType: "marketplace",
    visibility: "public",
    systemPrompt: source.systemPrompt,
    initialQuestion: source.initialQuestion,
    sections: source.sections,
    tags: source.tags,
    features: source.features,
    isActive: 1,
    isFeatured: 0,
    pricingTier: "free",
    usageCount: 0,
    promptProtected: 0,
    createdAt: now,
    updatedAt: now,
  };
  await trx.insertInto("templates").values(template).execute();
  await writeVersion(trx, template, actor.user.id, "Published from a marketplace submission");
  return template;
}

/** POST /api/admin/template-submissions/{submissionId}/review. */
export async function reviewSubmission(actor: Actor, submissionId: string, input: ReviewInput) {
  requireSuperadmin(actor);
  if (input.decision === "reject" && !input.reason) {
    throw validationError("reason", "A reason is required to reject a submission");
  }
  const updated = await db.transaction().execute(async (trx) => {
    const s = await trx.selectFrom("templateSubmissions").selectAll().where("id", "=", submissionId).executeTakeFirst();
    if (!s) throw notFound("Submission");
    if (s.status !== "pending") throw new AppError("CONFLICT", 409, `This submission was already ${s.status}`);
    const now = nowIso();
    let marketplaceTemplateId: string | null = null;
    if (input.decision === "approve") {
      const source = s.templateId ? await trx.selectFrom("templates").selectAll().where("id", "=", s.templateId).executeTakeFirst() : undefined;
      if (!source) throw new AppError("CONFLICT", 409, "The submitted template no longer exists; reject the submission instead");
      marketplaceTemplateId = (await publish(trx, actor, source, s.submitterId)).id;
    }
    const changes = {
      status: input.decision === "approve" ? ("approved" as const) : ("rejected" as const),
      reason: input.reason ?? null,
      marketplaceTemplateId,
      reviewedById: actor.user.id,
      reviewedAt: now,
      updatedAt: now,
    };
    await trx.updateTable("templateSubmissions").set(changes).where("id", "=", s.id).execute();
    await emit(trx, {
      orgId: s.orgId,
      name: "template.reviewed",
      data: { submissionId: s.id, templateId: s.templateId, decision: input.decision, marketplaceTemplateId, reason: changes.reason },
      actorId: actor.user.id,
    });
    return { ...s, ...changes };
  });
  return presentSubmission(updated);
}
