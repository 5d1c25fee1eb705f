import { z } from "zod/v4";

/**
 * The "Send to tracker" page's choice of stories (docs/trackers.md,
 * "Choosing the stories"): the stories written in the PRD, or Markdown pasted
 * (or sent from a selection in the editor). Saved AI outputs go through
 * `sendStoriesSchema` as before.
 */

export const STORY_SOURCES = ["output", "prd", "paste"] as const;
export type StorySource = (typeof STORY_SOURCES)[number];

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => v || undefined);

export const storySourceSchema = z.object({
  source: z.enum(["prd", "paste"], { error: "Choose where the stories come from" }),
  /** The pasted stories (source "paste"). */
  markdown: z.string().max(200_000, "The stories are too long: send at most 200,000 characters at a time").optional(),
  /** "editor" when the Markdown is a selection made in the PRD editor (only the wording of a message changes). */
  from: z.enum(["editor", "page"]).optional().catch(undefined),
  /** Empty: the project's last one, or the only one. */
  connectionId: optionalText(64),
  target: optionalText(200),
});
export type StorySourceInput = z.infer<typeof storySourceSchema>;

/** The stories checked in the preview: at least one. */
export const checkedStoriesSchema = z.array(z.string().max(64)).min(1, "Check at least one story to send.").max(500, "Send at most 500 stories at a time");
