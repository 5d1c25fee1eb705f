import { z } from "zod/v4";

/** Inputs of the Slack endpoints and forms (Settings → Slack, project settings), shared by the API routes and the pages. */

/** What can be announced in Slack, each with its own optional channel. */
export const SLACK_EVENT_KINDS = ["review_requested", "review_decided", "approval_requested", "approval_decided", "mention", "status_changed"] as const;
export type SlackEventKind = (typeof SLACK_EVENT_KINDS)[number];

export const SLACK_EVENT_LABELS: Record<SlackEventKind, string> = {
  review_requested: "Review requests",
  review_decided: "Review decisions",
  approval_requested: "Approval requests",
  approval_decided: "Approval decisions",
  mention: "Mentions",
  status_changed: "Status changes",
};

const blankToNull = (v: unknown) => (v === undefined ? undefined : typeof v === "string" && v.trim() === "" ? null : v);
/** A Slack conversation id (C…, G…), or null / "" for none. */
const channelId = z.preprocess(
  blankToNull,
  z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{2,40}$/, "Choose a channel from the list")
    .nullable()
    .optional(),
);

export const slackRoutingSchema = z.object({
  defaultChannelId: channelId,
  events: z.partialRecord(z.enum(SLACK_EVENT_KINDS), channelId).optional(),
  projects: z
    .array(z.object({ projectId: z.string().trim().min(1).max(100), channelId }))
    .max(200)
    .optional(),
});
export type SlackRoutingInput = z.infer<typeof slackRoutingSchema>;

/** The settings page's routing form: defaultChannelId and channel_<kind> selects. */
export function routingFromForm(values: Record<string, string>): SlackRoutingInput {
  return slackRoutingSchema.parse({
    defaultChannelId: values.defaultChannelId ?? "",
    events: Object.fromEntries(SLACK_EVENT_KINDS.map((k) => [k, values[`channel_${k}`] ?? ""])),
  });
}

export const slackTestSchema = z.object({ channelId });
export const projectChannelSchema = z.object({ channelId });
