import type { Template } from "#db/schema";
import type { Actor } from "../actor";

/** What non-superadmins see instead of a system or marketplace template's system prompt. */
export const PROTECTED = "[Protected]";

export const isPlatformTemplate = (t: Pick<Template, "templateType">) => t.templateType === "system" || t.templateType === "marketplace";

/** True when non-superadmins must not read this template's system prompt. */
export const isPromptProtected = (t: Pick<Template, "templateType" | "promptProtected">) => isPlatformTemplate(t) || t.promptProtected === 1;

/** The system prompt as this caller may see it. */
export function visiblePrompt(t: Pick<Template, "templateType" | "systemPrompt" | "promptProtected">, viewer: Pick<Actor, "isSuperadmin"> | null) {
  return isPromptProtected(t) && !viewer?.isSuperadmin ? PROTECTED : t.systemPrompt;
}

export function presentTemplate(t: Template, viewer: Pick<Actor, "isSuperadmin"> | null) {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    category: t.category,
    templateType: t.templateType,
    visibility: t.visibility,
    systemPrompt: visiblePrompt(t, viewer),
    initialQuestion: t.initialQuestion,
    sections: JSON.parse(t.sections) as string[],
    tags: JSON.parse(t.tags) as string[],
    features: JSON.parse(t.features) as string[],
    isActive: t.isActive === 1,
    isFeatured: t.isFeatured === 1,
    pricingTier: t.pricingTier,
    usageCount: t.usageCount,
    orgId: t.orgId,
    createdById: t.userId,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}
export type TemplateOut = ReturnType<typeof presentTemplate>;

/** The fields a version snapshot records (and a restore brings back). */
export const SNAPSHOT_FIELDS = [
  "name",
  "description",
  "category",
  "systemPrompt",
  "initialQuestion",
  "sections",
  "tags",
  "features",
  "isActive",
  "isFeatured",
  "pricingTier",
  "promptProtected",
] as const;
