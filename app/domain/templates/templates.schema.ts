import { z } from "zod/v4";
import { formBoolean } from "../form-fields";

export const TEMPLATE_TYPES = ["personal", "organization", "system", "marketplace"] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];
export const VISIBILITIES = ["personal", "organization", "public"] as const;
export const TEMPLATE_SORTS = ["name", "createdAt", "updatedAt", "usageCount", "category"] as const;
export const MARKETPLACE_SORTS = ["popular", "newest", "name"] as const;

const bool = formBoolean;

/** string[] from a JSON array, or from text (one per line or comma-separated) for forms. */
const list = (max: number) =>
  z.preprocess(
    (v) =>
      typeof v === "string"
        ? v
            .split(/\r?\n|,/)
            .map((s) => s.trim())
            .filter(Boolean)
        : v,
    z.array(z.string().trim().min(1).max(300)).max(max),
  );

const fields = {
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(120),
  description: z.string({ error: "Description is required" }).trim().min(1, "Description is required").max(2000),
  category: z.string({ error: "Category is required" }).trim().toLowerCase().min(1, "Category is required").max(60),
  templateType: z.enum(TEMPLATE_TYPES, { error: `templateType must be one of ${TEMPLATE_TYPES.join(", ")}` }),
  systemPrompt: z.string().max(20_000),
  initialQuestion: z.string().trim().max(1000),
  sections: list(40),
  tags: list(20),
  features: list(20),
  isActive: bool,
  isFeatured: bool,
  pricingTier: z
    .string({ error: "Pricing tier must be text" })
    .trim()
    .toLowerCase()
    .min(1, "Enter a pricing tier, such as free or premium")
    .max(40, "Pricing tier must be at most 40 characters"),
};

export const createTemplateSchema = z.object({
  name: fields.name,
  description: fields.description,
  category: fields.category,
  templateType: fields.templateType.optional(),
  systemPrompt: fields.systemPrompt.optional(),
  initialQuestion: fields.initialQuestion.optional(),
  sections: fields.sections.optional(),
  tags: fields.tags.optional(),
  features: fields.features.optional(),
  isActive: fields.isActive.optional(),
  isFeatured: fields.isFeatured.optional(),
  pricingTier: fields.pricingTier.optional(),
});
export type CreateTemplateInput = z.infer<typeof createTemplateSchema>;

export const updateTemplateSchema = createTemplateSchema.partial().extend({ note: z.string().trim().max(300).optional() });
export type UpdateTemplateInput = z.infer<typeof updateTemplateSchema>;

export const listTemplatesQuery = z.object({
  category: z.string().trim().toLowerCase().max(60).optional(),
  search: z.string().trim().max(200).optional(),
  type: fields.templateType.optional(),
});
export type ListTemplatesQuery = z.infer<typeof listTemplatesQuery>;

export const adminTemplatesQuery = z.object({
  templateType: fields.templateType.optional(),
  category: z.string().trim().toLowerCase().max(60).optional(),
  visibility: z.enum(VISIBILITIES).optional(),
  isActive: bool.optional(),
  isFeatured: bool.optional(),
  pricingTier: z.string().trim().toLowerCase().max(40).optional(),
  search: z.string().trim().max(200).optional(),
  sortBy: z.enum(TEMPLATE_SORTS, { error: `sortBy must be one of ${TEMPLATE_SORTS.join(", ")}` }).default("updatedAt"),
  sortOrder: z.enum(["asc", "desc"]).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type AdminTemplatesQuery = z.infer<typeof adminTemplatesQuery>;

export const marketplaceQuery = z.object({
  category: z.string().trim().toLowerCase().max(60).optional(),
  search: z.string().trim().max(200).optional(),
  featured: bool.optional(),
  pricingTier: z.string().trim().toLowerCase().max(40).optional(),
  sort: z.enum(MARKETPLACE_SORTS, { error: `sort must be one of ${MARKETPLACE_SORTS.join(", ")}` }).default("popular"),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type MarketplaceQuery = z.infer<typeof marketplaceQuery>;

export const restoreSchema = z.object({ versionId: z.string({ error: "versionId is required" }).trim().min(1).max(100) });
