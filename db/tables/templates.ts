/** Templates, their versions and marketplace submissions. */

export interface TemplatesTable {
  id: string;
  orgId: string | null;
  userId: string | null;
  name: string;
  description: string;
  category: string;
  templateType: "personal" | "organization" | "system" | "marketplace";
  visibility: "personal" | "organization" | "public";
  systemPrompt: string;
  initialQuestion: string;
  sections: string;
  tags: string;
  features: string;
  isActive: number;
  isFeatured: number;
  pricingTier: string;
  usageCount: number;
  /** 1 on copies of marketplace templates: the prompt is "[Protected]" for non-superadmins. */
  promptProtected: number;
  createdAt: string;
  updatedAt: string;
}

export interface TemplateVersionsTable {
  id: string;
  templateId: string;
  number: number;
  snapshot: string;
  note: string | null;
  createdById: string | null;
  createdAt: string;
}

export type SubmissionStatus = "pending" | "approved" | "rejected";

export interface TemplateSubmissionsTable {
  id: string;
  templateId: string | null;
  templateName: string;
  orgId: string | null;
  submitterId: string | null;
  notes: string | null;
  status: SubmissionStatus;
  reason: string | null;
  reviewedById: string | null;
  reviewedAt: string | null;
  marketplaceTemplateId: string | null;
  createdAt: string;
  updatedAt: string;
}
