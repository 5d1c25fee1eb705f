// Contracts of this area. Each exported contract is picked up by ./index.ts.
import { z } from "zod/v4";
import { ADMIN_ROLES } from "~/domain/actor";
import {
  changeRoleSchema,
  createInvitationSchema,
  removeMemberQuery,
  switchOrgSchema,
  teamInput,
  teamUpdate,
  tokenSchema,
  transferOwnershipSchema,
  updateOrgSettingsSchema,
} from "~/domain/orgs/orgs.schema";
import { contract } from "../contract";
import { queryBoolean, success } from "./shapes";

const tag = "Organization";
const roleEnum = z.enum(["owner", "admin", "member", "viewer"]);

const settingsShape = z.object({
  name: z.string(),
  branding: z.object({ primaryColor: z.string(), accentColor: z.string(), companyName: z.string(), logoUrl: z.string().nullable() }),
  notifications: z.object({ emailDigest: z.boolean(), memberJoinedAlerts: z.boolean(), billingAlerts: z.boolean(), securityAlerts: z.boolean() }),
  plan: z.object({ id: z.string(), name: z.string() }),
});

export const getOrgSettings = contract({
  method: "GET",
  path: "/api/organization/settings",
  tag,
  summary: "Organization settings: name, branding, notification preferences, plan",
  auth: "user",
  response: settingsShape,
});

export const updateOrgSettings = contract({
  method: "PATCH",
  path: "/api/organization/settings",
  tag,
  summary: "Update name, branding colours and notification preferences",
  description:
    "Body: `{name?, settings?: {branding?: {primaryColor, accentColor, companyName}, notifications?: {emailDigest, memberJoinedAlerts, billingAlerts, securityAlerts}}}`. Unknown keys are refused; validation details name the nested path (`settings.notifications.emailDigest`). The plan and logo are read-only here.",
  auth: "user",
  roles: ADMIN_ROLES,
  body: updateOrgSettingsSchema,
  response: settingsShape,
  errors: ["VALIDATION_ERROR", "FORBIDDEN"],
});

const memberShape = z.object({
  id: z.string(),
  userId: z.string(),
  role: roleEnum,
  joinedAt: z.string(),
  isYou: z.boolean(),
  user: z.object({ id: z.string(), name: z.string(), email: z.string(), emailVerified: z.boolean() }),
});

export const listMembers = contract({
  method: "GET",
  path: "/api/organization/members",
  tag,
  summary: "Members with roles and user data",
  auth: "user",
  response: z.object({ members: z.array(memberShape) }),
});

export const changeMemberRole = contract({
  method: "PATCH",
  path: "/api/organization/members/{memberId}",
  tag,
  summary: "Change a member's role (admin, member, viewer)",
  description:
    "`memberId` is the member's user id. Admins cannot change owners; the last owner cannot be demoted (409 OWNERSHIP_TRANSFER_REQUIRED). Emits `member.role_changed`.",
  auth: "user",
  roles: ADMIN_ROLES,
  params: z.object({ memberId: z.string() }),
  body: changeRoleSchema,
  response: z.object({ member: z.object({ id: z.string(), role: roleEnum }) }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "OWNERSHIP_TRANSFER_REQUIRED"],
});

export const removeMember = contract({
  method: "DELETE",
  path: "/api/organization/members/{memberId}",
  tag,
  summary: "Remove a member (or leave)",
  // Open to every role (anyone may leave), but with an API key it is membership administration.
  scope: "admin",
  description:
    "Admins and owners remove members; anyone may remove themselves. Their projects stay in the organization; `?reassignTo=<userId>` hands their projects and assignments to another member. The last owner cannot be removed. Emits `member.removed`.",
  auth: "user",
  params: z.object({ memberId: z.string() }),
  query: removeMemberQuery,
  response: success.extend({ reassigned: z.number() }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "OWNERSHIP_TRANSFER_REQUIRED"],
});

export const transferOwnership = contract({
  method: "POST",
  path: "/api/organization/transfer-ownership",
  tag,
  summary: "Transfer ownership to another member (owner only)",
  description: "The target becomes owner and the caller becomes admin. Emits `member.role_changed` for both.",
  auth: "user",
  roles: ["owner"],
  body: transferOwnershipSchema,
  response: success.extend({ ownerId: z.string() }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

const orgSummary = z.object({ id: z.string(), name: z.string(), slug: z.string(), plan: z.string(), role: roleEnum });

export const listMyOrganizations = contract({
  method: "GET",
  path: "/api/organization/switch",
  tag,
  summary: "Organizations the caller belongs to",
  auth: "user",
  response: z.object({ organizations: z.array(orgSummary.extend({ current: z.boolean() })) }),
});

export const switchOrganization = contract({
  method: "POST",
  path: "/api/organization/switch",
  tag,
  summary: "Move the session to another organization the caller belongs to",
  auth: "user",
  body: switchOrgSchema,
  response: z.object({ organization: orgSummary }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

const invitationShape = z.object({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  message: z.string().nullable(),
  status: z.string(),
  expiresAt: z.string(),
  expired: z.boolean(),
  createdAt: z.string(),
  invitedBy: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
});

export const listInvitations = contract({
  method: "GET",
  path: "/api/invitations",
  tag,
  summary: "Pending invitations",
  auth: "user",
  roles: ADMIN_ROLES,
  response: z.object({ invitations: z.array(invitationShape) }),
});

export const createInvitation = contract({
  method: "POST",
  path: "/api/invitations",
  tag,
  summary: "Invite someone by e-mail",
  description:
    "Sends an e-mail with a single-use link valid 7 days. Members plus open invitations count against the plan's `members` limit (403 LIMIT_REACHED, metric `members`). A new invitation to the same address replaces the previous one; inviting a member is 409 CONFLICT. Emits `invitation.created`.",
  auth: "user",
  roles: ADMIN_ROLES,
  body: createInvitationSchema,
  successStatus: 201,
  response: z.object({ invitation: invitationShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "LIMIT_REACHED", "CONFLICT"],
});

export const verifyInvitation = contract({
  method: "GET",
  path: "/api/invitations/verify",
  tag,
  summary: "What an invitation token invites to (public)",
  auth: "public",
  query: z.object({ token: z.string().trim().min(1).max(200) }),
  response: z.object({
    valid: z.literal(true),
    organization: z.object({ id: z.string(), name: z.string() }),
    email: z.string(),
    role: z.string(),
    message: z.string().nullable(),
    invitedBy: z.string().nullable(),
    expiresAt: z.string(),
    hasAccount: z.boolean(),
  }),
  errors: ["VALIDATION_ERROR", "NOT_FOUND", "TOKEN_EXPIRED"],
});

export const acceptInvitation = contract({
  method: "POST",
  path: "/api/invitations/accept",
  tag,
  summary: "Accept an invitation while signed in",
  description:
    "The signed-in user's e-mail must match the invitation (403). Where the server delivers mail (SMTP), the account must also have confirmed its address: otherwise 403 FORBIDDEN, and a fresh confirmation link is sent. The session moves to the joined organization. Used, cancelled or unknown tokens: 401 INVALID_TOKEN; expired: 410 TOKEN_EXPIRED. To register instead, send `inviteToken` to POST /api/auth/register. Emits `invitation.accepted` and `member.added`.",
  auth: "user",
  body: tokenSchema,
  response: z.object({ organization: orgSummary }),
  errors: ["VALIDATION_ERROR", "INVALID_TOKEN", "TOKEN_EXPIRED", "FORBIDDEN", "CONFLICT", "LIMIT_REACHED"],
});

export const resendInvitation = contract({
  method: "POST",
  path: "/api/invitations/{invitationId}",
  tag,
  summary: "Resend an invitation (new token and e-mail; the old link stops working)",
  description:
    "`invitedBy` is whoever sent the invitation now valid: after a resend, the admin who resent it (`{id, name}`), as the new e-mail and the invite page say. The original inviter stays in the audit log (`invitation.created`; `invitation.resent` records `previousInvitedById`).",
  auth: "user",
  roles: ADMIN_ROLES,
  params: z.object({ invitationId: z.string() }),
  response: z.object({ invitation: invitationShape }),
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const invitationLink = contract({
  method: "GET",
  path: "/api/invitations/{invitationId}/link",
  tag,
  summary: "The invitation's link, for an admin to hand over",
  // A GET, but the link admits a new member: not for read-only keys.
  scope: "admin",
  description:
    "Owners and admins only. Without an SMTP server mail stays in the outbox, so this is how the invitee gets the link: the admin copies it and sends it by another channel. The link is the same one the invitation e-mail carries (single-use, valid until `expiresAt`). An account registered with the invitee's address never sees it. Invitations sent before links were copyable answer 409 CONFLICT: resend them.",
  auth: "user",
  roles: ADMIN_ROLES,
  params: z.object({ invitationId: z.string() }),
  response: z.object({ invitation: invitationShape, url: z.string() }),
  errors: ["FORBIDDEN", "NOT_FOUND", "CONFLICT"],
});

export const cancelInvitation = contract({
  method: "DELETE",
  path: "/api/invitations/{invitationId}",
  tag,
  summary: "Cancel an invitation (its link stops working)",
  auth: "user",
  roles: ADMIN_ROLES,
  params: z.object({ invitationId: z.string() }),
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

const teamShape = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  color: z.string().nullable(),
  isArchived: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const listTeams = contract({
  method: "GET",
  path: "/api/admin/teams",
  tag,
  summary: "Teams of the organization",
  auth: "user",
  query: z.object({ includeArchived: queryBoolean.optional() }),
  response: z.object({ teams: z.array(teamShape) }),
});

export const createTeam = contract({
  method: "POST",
  path: "/api/admin/teams",
  tag,
  summary: "Create a team (name 1–100, description ≤ 500, colour hex)",
  auth: "user",
  roles: ADMIN_ROLES,
  body: teamInput,
  successStatus: 201,
  response: z.object({ team: teamShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN"],
});

export const updateTeam = contract({
  method: "PATCH",
  path: "/api/admin/teams/{teamId}",
  tag,
  summary: "Update or archive a team (`isArchived`)",
  auth: "user",
  roles: ADMIN_ROLES,
  params: z.object({ teamId: z.string() }),
  body: teamUpdate,
  response: z.object({ team: teamShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND"],
});

export const deleteTeam = contract({
  method: "DELETE",
  path: "/api/admin/teams/{teamId}",
  tag,
  summary: "Delete a team",
  auth: "user",
  roles: ADMIN_ROLES,
  params: z.object({ teamId: z.string() }),
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});
