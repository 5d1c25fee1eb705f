import { z } from "zod/v4";
import { PLAN_IDS } from "../billing/plans";
import { formBoolean } from "../form-fields";

/**
 * Built-in flags and their defaults, used until a superadmin stores a flag
 * with the same key. Export flags are on (integration exports still need a
 * connection); transcription is off until enabled.
 */
export const BUILTIN_FLAGS: Record<string, { enabled: boolean; description: string }> = {
  export_pdf: { enabled: true, description: "Export a PRD as PDF" },
  export_html: { enabled: true, description: "Export a PRD as HTML" },
  export_docx: { enabled: true, description: "Export a PRD as DOCX" },
  export_notes: { enabled: true, description: "Export to the notes workspace (needs a connected integration)" },
  export_wiki: { enabled: true, description: "Export to the wiki (needs a connected integration)" },
  export_docs: { enabled: true, description: "Export to the online document service (needs external sign-in)" },
  transcription: { enabled: false, description: "Audio transcription uploads" },
};

export const FLAG_KEY = /^[a-z][a-z0-9_.-]{1,63}$/;
export const flagKeySchema = z
  .string({ error: "key is required" })
  .trim()
  .toLowerCase()
  .regex(FLAG_KEY, "Use 2–64 characters: lowercase letters, digits, _ . - (starting with a letter)");

const ids = z.array(z.string().trim().min(1).max(100)).max(1000).default([]);

export const flagRulesSchema = z.object({
  allowUserIds: ids,
  denyUserIds: ids,
  allowOrgIds: ids,
  denyOrgIds: ids,
  /** Empty: every plan. */
  plans: z.array(z.enum(PLAN_IDS as [string, ...string[]], { error: `Plans are ${PLAN_IDS.join(", ")}` })).default([]),
});
export type FlagRules = z.infer<typeof flagRulesSchema>;
export const EMPTY_RULES: FlagRules = { allowUserIds: [], denyUserIds: [], allowOrgIds: [], denyOrgIds: [], plans: [] };

const emptyToNull = (v: unknown) => (v === "" ? null : v);

/** Upsert body: omitted fields keep their stored (or built-in) values. */
export const upsertFlagSchema = z.object({
  key: flagKeySchema,
  description: z.string().trim().max(500).optional(),
  enabled: formBoolean.optional(),
  rolloutPercentage: z.preprocess(emptyToNull, z.coerce.number({ error: "Use a whole number from 0 to 100" }).int().min(0).max(100).nullable()).optional(),
  rules: flagRulesSchema.optional(),
});
export type UpsertFlagInput = z.infer<typeof upsertFlagSchema>;
