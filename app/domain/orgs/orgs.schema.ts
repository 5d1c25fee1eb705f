import { z } from "zod/v4";
import { email } from "../auth/auth.schema";

/** Input schemas of organization settings, members, invitations and teams. */

export const hexColor = z
  .string()
  .trim()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "Use a hex colour such as #4f46e5");

export const brandingInput = z.strictObject({
  primaryColor: hexColor.optional(),
  accentColor: hexColor.optional(),
  companyName: z.string().trim().max(100).optional(),
});

export const orgNotificationsInput = z.strictObject({
  emailDigest: z.boolean().optional(),
  memberJoinedAlerts: z.boolean().optional(),
  billingAlerts: z.boolean().optional(),
  securityAlerts: z.boolean().optional(),
});

export const updateOrgSettingsSchema = z.strictObject({
  name: z.string().trim().min(1).max(100).optional(),
  settings: z
    .strictObject({
      branding: brandingInput.optional(),
      notifications: orgNotificationsInput.optional(),
    })
    .optional(),
});
export type UpdateOrgSettingsInput = z.output<typeof updateOrgSettingsSchema>;

export const assignableRole = z.enum(["admin", "member", "viewer"]);

export const changeRoleSchema = z.strictObject({ role: assignableRole });

export const removeMemberQuery = z.object({
  /** User id of the member who takes over the removed member's projects. */
  reassignTo: z.string().trim().min(1).optional(),
});

export const transferOwnershipSchema = z.strictObject({ userId: z.string().trim().min(1) });

export const switchOrgSchema = z.strictObject({ organizationId: z.string().trim().min(1) });

export const createInvitationSchema = z.strictObject({
  email,
  role: assignableRole,
  message: z.string().trim().max(1000).optional(),
});
export type CreateInvitationInput = z.output<typeof createInvitationSchema>;

export const tokenSchema = z.strictObject({ token: z.string().trim().min(1).max(200) });

export const teamInput = z.strictObject({
  name: z.string().trim().min(1, "Name is required").max(100, "At most 100 characters"),
  description: z.string().trim().max(500, "At most 500 characters").optional(),
  color: hexColor.nullable().optional(),
});
export type TeamInput = z.output<typeof teamInput>;

export const teamUpdate = z.strictObject({
  name: z.string().trim().min(1, "Name is required").max(100, "At most 100 characters").optional(),
  description: z.string().trim().max(500, "At most 500 characters").optional(),
  color: hexColor.nullable().optional(),
  isArchived: z.boolean().optional(),
});
export type TeamUpdate = z.output<typeof teamUpdate>;
