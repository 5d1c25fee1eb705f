import { z } from "zod/v4";

/** The eight preference booleans, in display order. */
export const PREFERENCE_KEYS = [
  "emailNotifications",
  "projectUpdates",
  "teamActivity",
  "commentMentions",
  "exportNotifications",
  "billingAlerts",
  "weeklyDigest",
  "securityAlerts",
] as const;
export type PreferenceKey = (typeof PREFERENCE_KEYS)[number];
export type Preferences = Record<PreferenceKey, boolean>;

/** Defaults for a user who never changed anything: everything on except the weekly digest. */
export const DEFAULT_PREFERENCES: Preferences = {
  emailNotifications: true,
  projectUpdates: true,
  teamActivity: true,
  commentMentions: true,
  exportNotifications: true,
  billingAlerts: true,
  weeklyDigest: false,
  securityAlerts: true,
};

/** Which preference governs each notification type (in-app and e-mail). */
export const TYPE_CATEGORY: Record<string, Exclude<PreferenceKey, "emailNotifications">> = {
  mention: "commentMentions",
  comment: "teamActivity",
  share: "projectUpdates",
  assignment: "projectUpdates",
  status_change: "projectUpdates",
  export: "exportNotifications",
  invitation: "teamActivity",
  approval: "teamActivity",
  incoming: "teamActivity",
  webhook_disabled: "securityAlerts",
  security: "securityAlerts",
  billing: "billingAlerts",
  digest: "weeklyDigest",
};

export const PREFERENCE_LABELS: Record<PreferenceKey, { label: string; hint: string }> = {
  emailNotifications: { label: "E-mail notifications", hint: "Master switch: when off, nothing is e-mailed (in-app notifications stay)." },
  projectUpdates: { label: "Project updates", hint: "Assignments, status changes and share links on your projects." },
  teamActivity: { label: "Team activity", hint: "Comments on your projects, invitations, review decisions." },
  commentMentions: { label: "Mentions", hint: "Someone @mentions you in a comment." },
  exportNotifications: { label: "Exports", hint: "Your exports finished or failed." },
  billingAlerts: { label: "Billing alerts", hint: "Plan limits and billing problems." },
  weeklyDigest: { label: "Weekly digest", hint: "A Monday e-mail summarising unread notifications and your projects' activity." },
  securityAlerts: { label: "Security alerts", hint: "Disabled webhooks and other security events." },
};

export const updatePreferencesSchema = z
  .strictObject(Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, z.boolean().optional()])) as Record<PreferenceKey, z.ZodOptional<z.ZodBoolean>>)
  .describe("Any subset of the eight booleans; unknown keys are refused");

export const preferencesShape = z.object(Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, z.boolean()])) as Record<PreferenceKey, z.ZodBoolean>);

export const listNotificationsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  unread: z
    .enum(["true", "false", "1", "0"])
    .transform((v) => v === "true" || v === "1")
    .optional(),
});
export type ListNotificationsQuery = z.output<typeof listNotificationsQuery>;

export const updateNotificationSchema = z.strictObject({ read: z.boolean() });

export const unsubscribeSchema = z.object({
  token: z.string().min(1).max(200),
  category: z.enum(PREFERENCE_KEYS).optional(),
});
