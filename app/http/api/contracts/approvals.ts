import { z } from "zod/v4";
import { ADMIN_ROLES } from "~/domain/actor";
import { createWorkflowSchema, decisionSchema, listApprovalsQuery, TRIGGERS, updateWorkflowSchema } from "~/domain/approvals/approvals.schema";
import { contract } from "../contract";
import { success } from "./shapes";

const tag = "Approvals";

const workflowShape = z.object({
  id: z.string(),
  name: z.string(),
  triggerType: z.enum(TRIGGERS),
  approverIds: z.array(z.string()),
  requiredApprovals: z.number(),
  allowSelfApproval: z.boolean(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const approvalRequestShape = z.object({
  id: z.string(),
  workflowId: z.string(),
  workflowName: z.string(),
  triggerType: z.enum(TRIGGERS),
  target: z.object({ type: z.string(), id: z.string(), label: z.string() }),
  status: z.enum(["pending", "approved", "rejected"]),
  requiredApprovals: z.number(),
  approvals: z.number(),
  approverIds: z.array(z.string()),
  allowSelfApproval: z.boolean(),
  requestedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  decisions: z.array(z.object({ userId: z.string(), name: z.string(), decision: z.enum(["approve", "reject"]), comment: z.string(), createdAt: z.string() })),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
});

const workflowParams = z.object({ workflowId: z.string() });
const approvalParams = z.object({ approvalId: z.string() });
const planErrors = ["FORBIDDEN", "PLAN_UPGRADE_REQUIRED"] as const;

export const listWorkflows = contract({
  method: "GET",
  path: "/api/admin/approval-workflows",
  tag,
  summary: "List approval workflows (Enterprise)",
  auth: "user",
  roles: ADMIN_ROLES,
  response: z.object({ workflows: z.array(workflowShape) }),
  errors: [...planErrors],
});

export const createWorkflow = contract({
  method: "POST",
  path: "/api/admin/approval-workflows",
  tag,
  summary: "Create an approval workflow (Enterprise)",
  description:
    "An active workflow holds its trigger: a move to APPROVED (prd_publish) or a project delete (project_delete) answers 202 `{approvalRequest}` until `requiredApprovals` approvers approve. approverIds must be organization members.",
  auth: "user",
  roles: ADMIN_ROLES,
  body: createWorkflowSchema,
  successStatus: 201,
  response: z.object({ workflow: workflowShape }),
  errors: ["VALIDATION_ERROR", ...planErrors],
});

export const updateWorkflow = contract({
  method: "PATCH",
  path: "/api/admin/approval-workflows/{workflowId}",
  tag,
  summary: "Update an approval workflow (Enterprise)",
  auth: "user",
  roles: ADMIN_ROLES,
  params: workflowParams,
  body: updateWorkflowSchema,
  response: z.object({ workflow: workflowShape }),
  errors: ["VALIDATION_ERROR", "NOT_FOUND", ...planErrors],
});

export const deleteWorkflow = contract({
  method: "DELETE",
  path: "/api/admin/approval-workflows/{workflowId}",
  tag,
  summary: "Delete an approval workflow and its requests (Enterprise)",
  auth: "user",
  roles: ADMIN_ROLES,
  params: workflowParams,
  response: success,
  errors: ["NOT_FOUND", ...planErrors],
});

export const listApprovals = contract({
  method: "GET",
  path: "/api/approvals",
  tag,
  summary: "Approval requests the caller can decide or made",
  auth: "user",
  query: listApprovalsQuery,
  response: z.object({ approvals: z.array(approvalRequestShape.extend({ canDecide: z.boolean() })) }),
});

export const getApproval = contract({
  method: "GET",
  path: "/api/approvals/{approvalId}",
  tag,
  summary: "One approval request",
  auth: "user",
  params: approvalParams,
  response: z.object({ approval: approvalRequestShape }),
  errors: ["NOT_FOUND"],
});

export const approve = contract({
  method: "POST",
  path: "/api/approvals/{approvalId}/approve",
  tag,
  summary: "Approve; reaching requiredApprovals runs the held action",
  auth: "user",
  params: approvalParams,
  body: decisionSchema,
  response: z.object({ approval: approvalRequestShape }),
  errors: ["FORBIDDEN", "NOT_FOUND", "CONFLICT"],
});

export const reject = contract({
  method: "POST",
  path: "/api/approvals/{approvalId}/reject",
  tag,
  summary: "Reject; one rejection rejects the request",
  auth: "user",
  params: approvalParams,
  body: decisionSchema,
  response: z.object({ approval: approvalRequestShape }),
  errors: ["FORBIDDEN", "NOT_FOUND", "CONFLICT"],
});
