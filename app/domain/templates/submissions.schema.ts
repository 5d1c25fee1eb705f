import { z } from "zod/v4";

/**
 * Inputs of the marketplace flows: template submissions and their review,
 * project quick-start and starting a project from a marketplace template.
 * (Marketplace browsing uses `marketplaceQuery` in templates.schema.ts.)
 */

export const SUBMISSION_STATUSES = ["pending", "approved", "rejected"] as const;
export const REVIEW_DECISIONS = ["approve", "reject"] as const;

const id = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(100);
const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

export const createSubmissionSchema = z.object({
  templateId: id("templateId"),
  notes: z.preprocess(emptyToUndefined, z.string().trim().max(2000).optional()),
});
export type CreateSubmissionInput = z.infer<typeof createSubmissionSchema>;

export const adminSubmissionsQuery = z.object({
  status: z.enum(SUBMISSION_STATUSES, { error: `status must be one of ${SUBMISSION_STATUSES.join(", ")}` }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type AdminSubmissionsQuery = z.infer<typeof adminSubmissionsQuery>;

export const reviewSchema = z
  .object({
    decision: z.enum(REVIEW_DECISIONS, { error: `decision must be one of ${REVIEW_DECISIONS.join(", ")}` }),
    reason: z.preprocess(emptyToUndefined, z.string().trim().max(2000).optional()),
  })
  .refine((v) => v.decision !== "reject" || !!v.reason, {
    path: ["reason"],
    message: "A reason is required to reject a submission",
  });
export type ReviewInput = z.infer<typeof reviewSchema>;

export const quickStartSchema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(200),
  templateId: z.preprocess(emptyToUndefined, z.string().trim().max(100).optional()),
  useCase: z.preprocess(emptyToUndefined, z.string().trim().max(5000).optional()),
});
export type QuickStartInput = z.infer<typeof quickStartSchema>;

export const fromMarketplaceSchema = z.object({
  templateId: id("templateId"),
  name: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(200).optional()),
});
export type FromMarketplaceInput = z.infer<typeof fromMarketplaceSchema>;
