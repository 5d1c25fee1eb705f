import { z } from "zod/v4";
import { INTEGRATION_PROVIDERS } from "./providers";

/** Inputs of the integration endpoints, shared by the API routes and the settings page's forms. */

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

export const providerSchema = z.enum(INTEGRATION_PROVIDERS, { error: `Use one of ${INTEGRATION_PROVIDERS.join(", ")}` });

const projectId = z.string({ error: "projectId is required" }).trim().min(1, "projectId is required").max(100);

/** A Notion page id with or without dashes, or a page URL ending in one; normalized to the dashed form. */
const notionPageId = z
  .string()
  .trim()
  .max(500)
  .transform((value, ctx) => {
    const m = /([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})(?:[?#][^/]*)?$/i.exec(value);
    if (!m) {
      ctx.addIssue({ code: "custom", message: "Use a Notion page id (32 hexadecimal characters) or the page's URL" });
      return z.NEVER;
    }
    return m.slice(1, 6).join("-").toLowerCase();
  });

export const exportNotesSchema = z.object({
  projectId,
  parentPageId: optional(notionPageId),
});

export const exportWikiSchema = z.object({
  content: z
    .string({ error: "content is required" })
    .max(2_000_000, "The content is too long")
    .refine((v) => v.trim().length > 0, "content is required"),
  projectName: optional(z.string().trim().max(255, "Confluence titles have at most 255 characters")),
  spaceId: optional(
    z
      .string()
      .trim()
      .max(255)
      .regex(/^[A-Za-z0-9~_-]+$/, "Use a space key (ENG) or a numeric space id"),
  ),
  parentId: optional(
    z
      .string()
      .trim()
      .regex(/^\d{1,30}$/, "parentId is a Confluence page id (digits)"),
  ),
  /** Optional addition: the project the content comes from (access-checked; named in the export events). */
  projectId: optional(projectId),
});

export const exportDocsSchema = z.object({ projectId });

export type ExportNotesInput = z.infer<typeof exportNotesSchema>;
export type ExportWikiInput = z.infer<typeof exportWikiSchema>;
export type ExportDocsInput = z.infer<typeof exportDocsSchema>;
