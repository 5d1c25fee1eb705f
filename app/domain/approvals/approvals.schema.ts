import { z } from "zod/v4";

export const TRIGGERS = ["prd_publish", "prd_export", "project_delete", "template_publish"] as const;
export const TRIGGER_LABELS: Record<(typeof TRIGGERS)[number], string> = {
  prd_publish: "Moving a project to Approved",
  prd_export: "Exporting a PRD",
  project_delete: "Deleting a project",
  template_publish: "Publishing a template",
};

const approverIds = z.array(z.string().min(1)).min(1, "Choose at least one approver").max(50);

export const createWorkflowSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(100),
  triggerType: z.enum(TRIGGERS, { message: "triggerType must be one of " + TRIGGERS.join(", ") }),
  approverIds,
  requiredApprovals: z.coerce.number().int().min(1).max(10).optional().default(1),
  allowSelfApproval: z.boolean().optional().default(false),
  isActive: z.boolean().optional().default(true),
});
export type CreateWorkflowInput = z.infer<typeof createWorkflowSchema>;

export const updateWorkflowSchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(100).optional(),
  triggerType: z.enum(TRIGGERS).optional(),
  approverIds: approverIds.optional(),
  requiredApprovals: z.coerce.number().int().min(1).max(10).optional(),
  allowSelfApproval: z.boolean().optional(),
  isActive: z.boolean().optional(),
});
export type UpdateWorkflowInput = z.infer<typeof updateWorkflowSchema>;

export const decisionSchema = z.object({ comment: z.string().trim().max(1000).optional().default("") });

export const listApprovalsQuery = z.object({
  status: z.enum(["pending", "approved", "rejected"]).optional(),
});
