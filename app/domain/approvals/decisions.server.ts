import type { ApprovalRequestsTable, ApprovalTrigger } from "#db/tables/approvals";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { AppError, forbidden, notFound } from "../errors";
import { notifyUsers } from "../notifications/notify.server";
import { applyApprovedChanges, deleteProjectIn } from "../projects/projects.server";
import { submitApprovedTemplate } from "../templates/submissions.server";
import { TRIGGER_LABELS } from "./approvals.schema";
import { presentRequest } from "./requests.server";
import { announceApproval } from "../slack/messages.server";

/** Runs the held action of an approved request, in the decision's transaction. `actor` is the final approver. */
export type ApprovalExecutor = (trx: Executor, actor: Actor, request: ApprovalRequestsTable) => Promise<void>;

const executors = new Map<ApprovalTrigger, ApprovalExecutor>();

/** Other areas (exports, templates) register what runs when their trigger is approved. */
export function registerApprovalExecutor(trigger: ApprovalTrigger, run: ApprovalExecutor) {
  executors.set(trigger, run);
}

registerApprovalExecutor("prd_publish", async (trx, actor, r) => {
  const { changes } = JSON.parse(r.payload) as { changes: Parameters<typeof applyApprovedChanges>[3] };
  await applyApprovedChanges(trx, actor, r.targetId, changes ?? { status: "APPROVED" });
});
registerApprovalExecutor("project_delete", async (trx, actor, r) => {
  const project = await trx.selectFrom("projects").selectAll().where("id", "=", r.targetId).where("orgId", "=", r.orgId).executeTakeFirst();
  if (project) await deleteProjectIn(trx, actor, project);
});
registerApprovalExecutor("template_publish", async (trx, _actor, r) => {
  await submitApprovedTemplate(trx, r);
});

function canDecide(actor: Actor, approverIds: string[], requestedById: string | null, allowSelf: boolean) {
  return approverIds.includes(actor.user.id) && (allowSelf || requestedById !== actor.user.id);
}

/** Requests the caller can decide, or made. `status` filters (default: all). */
export async function listApprovals(actor: Actor, q: { status?: "pending" | "approved" | "rejected" }) {
  let query = db.selectFrom("approvalRequests").selectAll().where("orgId", "=", actor.org.id);
  if (q.status) query = query.where("status", "=", q.status);
  const rows = await query.orderBy("createdAt", "desc").orderBy("id").limit(200).execute();
  const views = await Promise.all(rows.map((r) => presentRequest(db, r)));
  return views
    .filter((v) => v.requestedBy?.id === actor.user.id || v.approverIds.includes(actor.user.id))
    .map((v) => ({
      ...v,
      canDecide:
        v.status === "pending" &&
        canDecide(actor, v.approverIds, v.requestedBy?.id ?? null, v.allowSelfApproval) &&
        !v.decisions.some((d) => d.userId === actor.user.id),
    }));
}

async function findRequest(ex: Executor, actor: Actor, id: string) {
  const r = await ex.selectFrom("approvalRequests").selectAll().where("id", "=", id).where("orgId", "=", actor.org.id).executeTakeFirst();
  if (!r) throw notFound("Approval request");
  return r;
}

export async function getApproval(actor: Actor, id: string) {
  const r = await findRequest(db, actor, id);
  const view = await presentRequest(db, r);
  const admin = actor.role === "owner" || actor.role === "admin";
  if (!admin && view.requestedBy?.id !== actor.user.id && !view.approverIds.includes(actor.user.id)) throw notFound("Approval request");
  return view;
}

/** Records an approval or a rejection. Reaching requiredApprovals runs the held action; one rejection rejects. */
export async function decideApproval(actor: Actor, id: string, decision: "approve" | "reject", comment: string) {
  return db.transaction().execute(async (trx) => {
    const r = await findRequest(trx, actor, id);
    const view = await presentRequest(trx, r);
    if (!view.approverIds.includes(actor.user.id)) throw forbidden("Only the workflow's approvers may decide this request");
    if (!view.allowSelfApproval && r.requestedById === actor.user.id) throw forbidden("You cannot approve your own request");
    if (r.status !== "pending") throw new AppError("CONFLICT", 409, `This request is already ${r.status}`);
    if (view.decisions.some((d) => d.userId === actor.user.id)) throw new AppError("CONFLICT", 409, "You have already decided this request");
    const now = nowIso();
    await trx.insertInto("approvalDecisions").values({ id: newId(), requestId: r.id, userId: actor.user.id, decision, comment, createdAt: now }).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: decision === "approve" ? "approval.approved" : "approval.rejected",
      category: "settings",
      targetType: r.targetType,
      targetId: r.targetId,
      metadata: { requestId: r.id, triggerType: r.triggerType, comment },
    });
    const approvals = view.approvals + (decision === "approve" ? 1 : 0);
    const outcome: "approved" | "rejected" | null = decision === "reject" ? "rejected" : approvals >= view.requiredApprovals ? "approved" : null;
    if (outcome === "approved") {
      const run = executors.get(r.triggerType);
      if (run) await run(trx, actor, r);
    }
    if (outcome) {
      await trx.updateTable("approvalRequests").set({ status: outcome, resolvedAt: now }).where("id", "=", r.id).execute();
      await announceApproval(trx, {
        orgId: r.orgId,
        requestId: r.id,
        targetType: r.targetType,
        targetId: r.targetId,
        label: r.targetLabel,
        step: outcome,
        who: actor.user.name,
      });
      if (r.requestedById) {
        await notifyUsers(trx, [r.requestedById], {
          orgId: r.orgId,
          type: "approval",
          title: `${TRIGGER_LABELS[r.triggerType]} ${outcome}: ${r.targetLabel}`,
          body: comment ? `${actor.user.name}: ${comment}` : null,
          link: "/approvals",
          data: { approvalRequestId: r.id, outcome },
        });
      }
    }
    const fresh = await findRequest(trx, actor, id);
    return presentRequest(trx, fresh);
  });
}
