import { z } from "zod/v4";
import { TRACKER_SERVICES } from "./adapter";

/** Inputs of issue-tracker sync, shared by the API and the pages (docs/trackers.md). */

export const trackerServiceSchema = z.enum(TRACKER_SERVICES, { error: "Choose GitHub, Linear or Jira" });

export const connectTrackerSchema = z.object({
  service: trackerServiceSchema,
  token: z.string({ error: "Paste a token" }).trim().min(1, "Paste a token").max(1000, "This token is too long"),
  /** Service-specific, non-secret settings (a Jira site URL and account e-mail). */
  settings: z.record(z.string(), z.string().max(500)).optional(),
});
export type ConnectTrackerInput = z.infer<typeof connectTrackerSchema>;

/** A signing secret the service generated (Linear's webhook settings), pasted by an admin. */
export const webhookSecretSchema = z.object({
  secret: z
    .string({ error: "Paste the signing secret" })
    .trim()
    .min(8, "Paste the whole signing secret (at least 8 characters)")
    .max(500, "This secret is too long")
    .regex(/^\S+$/, "A signing secret has no spaces"),
});
export type WebhookSecretInput = z.infer<typeof webhookSecretSchema>;

/**
 * The targets (ids, as GET /api/integrations/trackers/{id}/targets gives them)
 * an owner or admin allows stories to be sent to; null: any the token reaches.
 */
export const allowedTargetsSchema = z.object({
  allowedTargets: z
    .array(z.string().trim().min(1, "A target cannot be empty").max(200, "This target is too long"), { error: "Give a list of targets, or null for any" })
    .min(1, "Choose at least one, or allow any the token can reach")
    .max(500, "At most 500 targets")
    .nullable(),
});
export type AllowedTargetsInput = z.infer<typeof allowedTargetsSchema>;

export const sendStoriesSchema = z
  .object({
    connectionId: z.string({ error: "Choose a tracker" }).min(1, "Choose a tracker"),
    target: z.string({ error: "Choose where to create the issues" }).trim().min(1, "Choose where to create the issues").max(200),
    /** A saved user-stories AI output of the project. */
    outputId: z.string().min(1).optional(),
    /** Or stories picked in the editor, as Markdown. */
    markdown: z.string().max(200_000, "The selection is too long").optional(),
    /** Only these stories (keys from the preview); all when absent. */
    storyKeys: z.array(z.string().max(64)).max(500).optional(),
  })
  .refine((v) => Boolean(v.outputId) || Boolean(v.markdown?.trim()), { message: "Choose saved user stories or paste stories as Markdown", path: ["outputId"] });
export type SendStoriesInput = z.infer<typeof sendStoriesSchema>;
