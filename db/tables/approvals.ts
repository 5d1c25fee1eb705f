/** Approval workflows, requests and decisions (Enterprise). */

export type ApprovalTrigger = "prd_publish" | "prd_export" | "project_delete" | "template_publish";
export type ApprovalStatus = "pending" | "approved" | "rejected";

export interface ApprovalWorkflowsTable {
  id: string;
  orgId: string;
  name: string;
  triggerType: ApprovalTrigger;
  /** JSON string[] of user ids. */
  approverIds: string;
  requiredApprovals: number;
  allowSelfApproval: number;
  isActive: number;
  createdById: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ApprovalRequestsTable {
  id: string;
  orgId: string;
  workflowId: string;
  triggerType: ApprovalTrigger;
  targetType: string;
  targetId: string;
  targetLabel: string;
  /** JSON: what the held action does when approved. */
  payload: string;
  status: ApprovalStatus;
  requestedById: string | null;
  resolvedAt: string | null;
  createdAt: string;
}

export interface ApprovalDecisionsTable {
  id: string;
  requestId: string;
  userId: string;
  decision: "approve" | "reject";
  comment: string;
  createdAt: string;
}

// Table interfaces of this area; each is listed in ApprovalsTables (merged into Database in ../schema.ts).
export interface ApprovalsTables {
  approvalWorkflows: ApprovalWorkflowsTable;
  approvalRequests: ApprovalRequestsTable;
  approvalDecisions: ApprovalDecisionsTable;
}
