import { z } from "zod/v4";

export const PRD_STYLES = ["comprehensive", "technical", "business", "lean", "agile"] as const;

/** 2 MB of text is far beyond any PRD; the request body limit is 1 MB anyway. */
const content = z.string({ error: "Content is required" }).max(2_000_000, "The PRD is too long");
const style = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(PRD_STYLES, { error: `Style must be one of ${PRD_STYLES.join(", ")}` }));

/** With `baseVersionId`: merge this save with the ones made since that version (three-way) instead of refusing it; only overlapping edits are a conflict. */
const merge = z.preprocess((v) => (v === "true" || v === "on" ? true : v === "false" || v === "" ? undefined : v), z.boolean().optional());

export const putPrdSchema = z.object({
  content,
  style: z.preprocess((v) => (v === "" ? undefined : v), style.optional()),
  baseVersionId: z.string().trim().max(100).optional(),
  merge,
});
export type PutPrdInput = z.infer<typeof putPrdSchema>;

export const patchPrdSchema = z.object({
  content: content.optional(),
  style: z.preprocess((v) => (v === "" ? undefined : v), style.optional()),
  /** The version the client edited; a newer one on the server is 409 CONFLICT. */
  baseVersionId: z.string().trim().max(100).optional(),
  merge,
});
export type PatchPrdInput = z.infer<typeof patchPrdSchema>;

export const createVersionSchema = z.object({
  label: z.string().trim().max(120).optional(),
});

export const getVersionQuery = z.object({
  compare: z.string().trim().max(100).optional(),
});

/** Unsaved editor text to check (POST …/prd/check). */
export const checkPrdSchema = z.object({ content });
