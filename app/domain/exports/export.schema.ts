import { z } from "zod/v4";

/** Inputs of the file exports: one PRD as pdf/html/docx, or several as a zip. */

/** Most projects a bulk export takes (docs/exports.md). */
export const BULK_MAX_PROJECTS = 20;
export const BULK_FORMATS = ["pdf", "html", "markdown", "all"] as const;
export type BulkFormat = (typeof BULK_FORMATS)[number];

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/**
 * Body of POST /api/export/pdf|html|docx (docs/exports.md):
 * `projectId` or `content`, at least one of the two; `title` optional.
 * - projectId: a project the caller can read; its saved PRD.
 * - content: markdown, not tied to a project.
 * - both: `content` as the text of that project (an unsaved draft of it),
 *   read-checked, branded and held for approval like the project.
 * `title` defaults to the project's name, or "Untitled PRD" for content.
 * Each field is optional on its own (`.optional()` outside the blank-to-
 * undefined step), so the OpenAPI document does not mark them required.
 */
export const singleExportSchema = z
  .object({
    projectId: z.preprocess(blankToUndefined, z.string().trim().max(100).optional()).optional(),
    content: z.preprocess(blankToUndefined, z.string().max(1_000_000, "content is longer than 1,000,000 characters").optional()).optional(),
    title: z.preprocess(blankToUndefined, z.string().trim().max(200, "title is longer than 200 characters").optional()).optional(),
  })
  .superRefine(({ projectId, content }, ctx) => {
    if (!projectId && content === undefined) {
      ctx.addIssue({ code: "custom", path: ["projectId"], message: "Send projectId (a project to export) or content (markdown to export)" });
    }
  })
  .meta({ anyOf: [{ required: ["projectId"] }, { required: ["content"] }] });
export type SingleExportInput = z.infer<typeof singleExportSchema>;

/** A form sends one checkbox value as a string and several as an array. */
const idList = z.preprocess(
  (v) => (typeof v === "string" ? (v.trim() === "" ? [] : [v]) : v),
  z
    .array(z.string({ error: "Each project id must be a string" }).trim().min(1, "A project id is empty").max(100), {
      error: "projectIds must be an array of project ids",
    })
    .min(1, "Choose at least one project")
    // Above 20 the domain answers TOO_MANY_PROJECTS; this only bounds the body.
    .max(1000, "projectIds is far too long"),
);

/** Body of POST /api/export/bulk. */
export const bulkExportSchema = z.object({
  projectIds: idList,
  format: z.enum(BULK_FORMATS, { error: `format must be one of ${BULK_FORMATS.join(", ")}` }),
});
export type BulkExportInput = z.infer<typeof bulkExportSchema>;
