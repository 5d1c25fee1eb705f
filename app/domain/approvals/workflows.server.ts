import type { ApprovalWorkflowsTable } from "#db/tables/approvals";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { requirePlan } from "../billing/limits.server";
import { notFound, validationError } from "../errors";
import type { CreateWorkflowInput, UpdateWorkflowInput } from "./approvals.schema";

function assertManage(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "manage approval workflows");
  requirePlan(actor.org, "enterprise", "Approval workflows");
}

export function presentWorkflow(w: ApprovalWorkflowsTable) {
  return {
    id: w.id,
    name: w.name,
    triggerType: w.triggerType,
    approverIds: JSON.parse(w.approverIds) as string[],
    requiredApprovals: w.requiredApprovals,
    allowSelfApproval: !!w.allowSelfApproval,
    isActive: !!w.isActive,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}
export type WorkflowView = ReturnType<typeof presentWorkflow>;

async function assertApprovers(ex: Executor, orgId: string, ids: string[], required: number) {
  const unique = [...new Set(ids)];
  const rows = await ex.selectFrom("memberships").select("userId").where("orgId", "=", orgId).where("userId", "in", unique).execute();
  if (rows.length !== unique.length) throw validationError("approverIds", "Every approver must be a member of this organization");
  if (required > unique.length) throw validationError("requiredApprovals", "requiredApprovals cannot exceed the number of approvers");
  return unique;
}

export async function listWorkflows(actor: Actor) {
  assertManage(actor);
  const rows = await db.selectFrom("approvalWorkflows").selectAll().where("orgId", "=", actor.org.id).orderBy("createdAt").orderBy("id").execute();
  return rows.map(presentWorkflow);
}

async function findWorkflow(ex: Executor, actor: Actor, id: string) {
  const w = await ex.selectFrom("approvalWorkflows").selectAll().where("id", "=", id).where("orgId", "=", actor.org.id).executeTakeFirst();
  if (!w) throw notFound("Approval workflow");
  return w;
}

export async function getWorkflow(actor: Actor, id: string) {
  assertManage(actor);
  return presentWorkflow(await findWorkflow(db, actor, id));
}

export async function createWorkflow(actor: Actor, input: CreateWorkflowInput) {
  assertManage(actor);
  return db.transaction().execute(async (trx) => {
    const approvers = await assertApprovers(trx, actor.org.id, input.approverIds, input.requiredApprovals);
    const now = nowIso();
    const row: ApprovalWorkflowsTable = {
      id: newId(),
      orgId: actor.org.id,
      name: input.name,
      triggerType: input.triggerType,
      approverIds: JSON.stringify(approvers),
      requiredApprovals: input.requiredApprovals,
      allowSelfApproval: input.allowSelfApproval ? 1 : 0,
      isActive: input.isActive ? 1 : 0,
      createdById: actor.user.id,
      createdAt: now,
      updatedAt: now,
    };
    await trx.insertInto("approvalWorkflows").values(row).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "approval_workflow.created",
      category: "settings",
      targetType: "approval_workflow",
      targetId: row.id,
      metadata: { name: row.name, triggerType: row.triggerType },
    });
    return presentWorkflow(row);
  });
}

export async function updateWorkflow(actor: Actor, id: string, input: UpdateWorkflowInput) {
  assertManage(actor);
  return db.transaction().execute(async (trx) => {
    const w = await findWorkflow(trx, actor, id);
    const required = input.requiredApprovals ?? w.requiredApprovals;
    const approvers = await assertApprovers(trx, actor.org.id, input.approverIds ?? JSON.parse(w.approverIds), required);
    const next: ApprovalWorkflowsTable = {
      ...w,
      name: input.name ?? w.name,
      triggerType: input.triggerType ?? w.triggerType,
      approverIds: JSON.stringify(approvers),
      requiredApprovals: required,
      allowSelfApproval: input.allowSelfApproval === undefined ? w.allowSelfApproval : input.allowSelfApproval ? 1 : 0,
      isActive: input.isActive === undefined ? w.isActive : input.isActive ? 1 : 0,
      updatedAt: nowIso(),
    };
    await trx.updateTable("approvalWorkflows").set(next).where("id", "=", w.id).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "approval_workflow.updated",
      category: "settings",
      targetType: "approval_workflow",
      targetId: w.id,
      metadata: { fields: Object.keys(input) },
    });
    return presentWorkflow(next);
  });
}

export async function deleteWorkflow(actor: Actor, id: string) {
  assertManage(actor);
  await db.transaction().execute(async (trx) => {
    const w = await findWorkflow(trx, actor, id);
    await trx.deleteFrom("approvalWorkflows").where("id", "=", w.id).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "approval_workflow.deleted",
      category: "settings",
      severity: "warning",
      targetType: "approval_workflow",
      targetId: w.id,
      metadata: { name: w.name },
    });
  });
}
