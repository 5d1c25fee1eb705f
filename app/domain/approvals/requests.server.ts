import type { ApprovalRequestsTable, ApprovalTrigger } from "#db/tables/approvals";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { planAtLeast } from "../billing/plans";
import { AppError } from "../errors";
import { notifyUsers } from "../notifications/notify.server";
import { TRIGGER_LABELS } from "./approvals.schema";
import { announceApproval } from "../slack/messages.server";

export interface ApprovalTarget {
  type: string;
  id: string;
  label: string;
  /** What the held action does once approved (read by the executor of the trigger). */
  payload?: Record<string, unknown>;
}

/** Thrown by requireApprovalOrProceed: the API answers 202 `{approvalRequest}`, the UI shows the message. */
export class ApprovalPendingError extends AppError {
  readonly approvalRequest: ApprovalRequestView;
  constructor(request: ApprovalRequestView) {
    super("APPROVAL_REQUIRED", 202, `Sent for approval: ${TRIGGER_LABELS[request.triggerType]} needs ${request.requiredApprovals} approval(s)`, {
      extra: { approvalRequest: request },
    });
    this.approvalRequest = request;
  }
}

export async function presentRequest(ex: Executor, r: ApprovalRequestsTable) {
  const w = await ex.selectFrom("approvalWorkflows").selectAll().where("id", "=", r.workflowId).executeTakeFirst();
  const decisions = await ex
    .selectFrom("approvalDecisions")
    .innerJoin("users", "users.id", "approvalDecisions.userId")
    .select(["approvalDecisions.userId", "users.name", "approvalDecisions.decision", "approvalDecisions.comment", "approvalDecisions.createdAt"])
    .where("requestId", "=", r.id)
    .orderBy("approvalDecisions.createdAt")
    .execute();
  const requester = r.requestedById ? await ex.selectFrom("users").select(["id", "name"]).where("id", "=", r.requestedById).executeTakeFirst() : undefined;
  return {
    id: r.id,
    workflowId: r.workflowId,
    workflowName: w?.name ?? "",
    triggerType: r.triggerType,
    target: { type: r.targetType, id: r.targetId, label: r.targetLabel },
    status: r.status,
    requiredApprovals: w?.requiredApprovals ?? 1,
    approvals: decisions.filter((d) => d.decision === "approve").length,
    approverIds: w ? (JSON.parse(w.approverIds) as string[]) : [],
    allowSelfApproval: !!w?.allowSelfApproval,
    requestedBy: requester ? { id: requester.id, name: requester.name } : null,
    decisions: decisions.map((d) => ({ userId: d.userId, name: d.name, decision: d.decision, comment: d.comment, createdAt: d.createdAt })),
    createdAt: r.createdAt,
    resolvedAt: r.resolvedAt,
  };
}
export type ApprovalRequestView = Awaited<ReturnType<typeof presentRequest>>;

/** The active workflow for a trigger, when the organization is on Enterprise. */
export async function activeWorkflow(ex: Executor, org: Actor["org"], trigger: ApprovalTrigger) {
  if (!planAtLeast(org.plan, "enterprise")) return undefined;
  return ex
    .selectFrom("approvalWorkflows")
    .selectAll()
    .where("orgId", "=", org.id)
    .where("triggerType", "=", trigger)
    .where("isActive", "=", 1)
    .orderBy("createdAt")
    .executeTakeFirst();
}

/**
 * The gate every guarded operation calls BEFORE acting (after its own
 * permission checks). Returns when no active workflow covers the trigger;
 * otherwise creates (or reuses the pending) approval request for the target,
 * notifies the approvers, commits, and throws ApprovalPendingError (202).
 * A pending request is reused per target (per target and requester for prd_export).
 */
export async function requireApprovalOrProceed(actor: Actor, trigger: ApprovalTrigger, target: ApprovalTarget): Promise<void> {
  const workflow = await activeWorkflow(db, actor.org, trigger);
  if (!workflow) return;
  const view = await db.transaction().execute(async (trx) => {
    let pending = trx
      .selectFrom("approvalRequests")
      .selectAll()
      .where("orgId", "=", actor.org.id)
      .where("triggerType", "=", trigger)
      .where("targetId", "=", target.id)
      .where("status", "=", "pending");
    // An approved export lets its requester download once: each requester has their own request.
    if (trigger === "prd_export") pending = pending.where("requestedById", "=", actor.user.id);
    const existing = await pending.executeTakeFirst();
    if (existing) return presentRequest(trx, existing);
    const row: ApprovalRequestsTable = {
      id: newId(),
      orgId: actor.org.id,
      workflowId: workflow.id,
      triggerType: trigger,
      targetType: target.type,
      targetId: target.id,
      targetLabel: target.label,
      payload: JSON.stringify(target.payload ?? {}),
      status: "pending",
      requestedById: actor.user.id,
      resolvedAt: null,
      createdAt: nowIso(),
    };
    await trx.insertInto("approvalRequests").values(row).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "approval.requested",
      category: "settings",
      targetType: target.type,
      targetId: target.id,
      metadata: { requestId: row.id, triggerType: trigger },
    });
    const approvers = (JSON.parse(workflow.approverIds) as string[]).filter((id) => workflow.allowSelfApproval || id !== actor.user.id);
    await notifyUsers(trx, approvers, {
      orgId: actor.org.id,
      type: "approval",
      title: `Approval requested: ${TRIGGER_LABELS[trigger]}`,
      body: `${actor.user.name} asks for approval on "${target.label}".`,
      link: `/approvals`,
      data: { approvalRequestId: row.id },
    });
    await announceApproval(trx, {
      orgId: actor.org.id,
      requestId: row.id,
      targetType: target.type,
      targetId: target.id,
      label: target.label,
      step: "requested",
      who: actor.user.name,
    });
    return presentRequest(trx, row);
  });
  throw new ApprovalPendingError(view);
}
