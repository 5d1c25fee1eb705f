import type { ApprovalRequestsTable } from "#db/tables/approvals";
import { db, type Executor } from "~/db.server";
import type { Actor } from "../actor";
import { registerApprovalExecutor } from "../approvals/decisions.server";
import { activeWorkflow, ApprovalPendingError, type ApprovalRequestView, requireApprovalOrProceed } from "../approvals/requests.server";
import { AppError } from "../errors";
import { notifyUsers } from "../notifications/notify.server";
import { plural, pluralWord } from "~/utils/plural";

/**
 * The `prd_export` approval gate (Enterprise). While an active workflow with
 * that trigger exists, exporting a project needs an approved request made by
 * the same person for that project; each approved request lets ONE export of
 * the project through (any format) and is then marked used
 * (`payload.consumedAt`). Without one, the export becomes an approval request
 * (202 APPROVAL_REQUIRED). Content exports (markdown sent in the body) are not
 * tied to a project and are never held. See docs/exports.md.
 */

export interface ExportTarget {
  id: string;
  label: string;
  /** What is exported: a project (default), or the organization (a scheduled digest of every project). */
  type?: "project" | "organization";
}

interface GrantPayload {
  format?: string;
  consumedAt?: string | null;
  [key: string]: unknown;
}

const payloadOf = (r: Pick<ApprovalRequestsTable, "payload">): GrantPayload => {
  try {
    return (JSON.parse(r.payload) as GrantPayload) ?? {};
  } catch {
    return {};
  }
};

/** Approved, unused prd_export requests of the caller for these projects: the oldest one per project. */
async function findGrants(ex: Executor, actor: Actor, projectIds: string[]) {
  const rows = await ex
    .selectFrom("approvalRequests")
    .selectAll()
    .where("orgId", "=", actor.org.id)
    .where("triggerType", "=", "prd_export")
    .where("status", "=", "approved")
    .where("requestedById", "=", actor.user.id)
    .where("targetId", "in", projectIds)
    .orderBy("resolvedAt")
    .orderBy("id")
    .execute();
  const grants = new Map<string, ApprovalRequestsTable>();
  for (const r of rows) if (!payloadOf(r).consumedAt && !grants.has(r.targetId)) grants.set(r.targetId, r);
  return grants;
}

/**
 * Call before rendering. Returns the grants it used, project id → approval
 * request id (empty when no workflow applies): give the ids to releaseGrants
 * if the export then fails.
 * Throws ApprovalPendingError (202) when a project has no grant; for several
 * projects, one request per project is made and the envelope lists them all
 * in `approvalRequests` (with the first also as `approvalRequest`).
 */
export async function gateExport(actor: Actor, targets: ExportTarget[], format: string): Promise<Map<string, string>> {
  if (!targets.length || !(await activeWorkflow(db, actor.org, "prd_export"))) return new Map();
  const grants = await findGrants(
    db,
    actor,
    targets.map((t) => t.id),
  );
  const held: ApprovalRequestView[] = [];
  for (const t of targets.filter((t) => !grants.has(t.id))) {
    try {
      await requireApprovalOrProceed(actor, "prd_export", { type: t.type ?? "project", id: t.id, label: t.label, payload: { format } });
    } catch (error) {
      if (!(error instanceof ApprovalPendingError)) throw error;
      held.push(error.approvalRequest);
    }
  }
  if (held.length === 1 && targets.length === 1) throw new ApprovalPendingError(held[0]!);
  if (held.length) {
    throw new AppError(
      "APPROVAL_REQUIRED",
      202,
      `Sent for approval: ${held.length} of the ${plural(targets.length, "project")} ${pluralWord(held.length, "needs", "need")} an approved export first; ` +
        "export again once they are approved",
      { extra: { approvalRequest: held[0], approvalRequests: held } },
    );
  }
  await claimGrants([...grants.values()]);
  return new Map([...grants].map(([projectId, r]) => [projectId, r.id]));
}

/** Marks the grants used, all or none: a grant another download used meanwhile is a 409. */
async function claimGrants(grants: ApprovalRequestsTable[]) {
  if (!grants.length) return;
  const consumedAt = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    for (const g of grants) {
      const next = JSON.stringify({ ...payloadOf(g), consumedAt });
      const res = await trx.updateTable("approvalRequests").set({ payload: next }).where("id", "=", g.id).where("payload", "=", g.payload).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) {
        throw new AppError(
          "CONFLICT",
          409,
          `The approved export of “${g.targetLabel}” was just used by another download; export again to request a new approval`,
        );
      }
    }
  });
}

/** Gives grants back after a failed export, so the requester can try again (in the caller's transaction). */
export async function releaseGrants(trx: Executor, ids: string[]) {
  if (!ids.length) return;
  const rows = await trx.selectFrom("approvalRequests").select(["id", "payload"]).where("id", "in", ids).execute();
  for (const r of rows) {
    await trx
      .updateTable("approvalRequests")
      .set({ payload: JSON.stringify({ ...payloadOf(r), consumedAt: null }) })
      .where("id", "=", r.id)
      .execute();
  }
}

// Approving a held export runs nothing by itself (a file cannot be handed over
// later): it tells the requester that their next export of the project will go through.
registerApprovalExecutor("prd_export", async (trx, _approver, r) => {
  if (!r.requestedById) return;
  await notifyUsers(trx, [r.requestedById], {
    orgId: r.orgId,
    type: "export",
    title: `Your export of ${r.targetLabel} was approved`,
    body: "Export it again to download the file. The approval covers one export.",
    link: r.targetType === "project" ? `/projects/${r.targetId}` : "/exports",
    data: { approvalRequestId: r.id, projectId: r.targetId },
    email: false,
  });
});
