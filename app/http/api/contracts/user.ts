// Contracts of this area. Each exported contract is picked up by ./index.ts.
import { z } from "zod/v4";
import { deleteAccountSchema, onboardingSchema, timezoneSchema, updateProfileSchema } from "~/domain/users/users.schema";
import { contract } from "../contract";

const tag = "User account";

const profileShape = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  jobTitle: z.string().nullable(),
  bio: z.string().nullable(),
  avatar: z.string().nullable().describe("http(s) URL"),
  preferredStyle: z.string().nullable().describe("comprehensive, technical, business, lean or agile"),
  timezone: z.string(),
  lastActiveAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const preferences = z.record(z.string(), z.unknown()).describe("The onboarding answers: company, useCase, teamSize, prdStyle, interests");
const profileResponse = z.object({ profile: profileShape, preferences });
const onboardingStatus = z.object({ completed: z.boolean(), completedAt: z.string().nullable(), preferences });

export const getProfile = contract({
  method: "GET",
  path: "/api/user/profile",
  tag,
  summary: "Your profile, e-mail, timezone and onboarding preferences",
  auth: "user",
  response: profileResponse,
});

export const updateProfile = contract({
  method: "PATCH",
  path: "/api/user/profile",
  tag,
  summary: "Update your profile",
  description:
    "Any of name (1–100), jobTitle (≤100), bio (≤1000), avatar (http/https URL), preferredStyle (comprehensive, technical, business, lean, agile). `null` or an empty string clears an optional field. Returns the whole profile.",
  auth: "user",
  body: updateProfileSchema,
  response: profileResponse,
  errors: ["VALIDATION_ERROR"],
});

export const updateTimezone = contract({
  method: "PATCH",
  path: "/api/user/timezone",
  tag,
  summary: "Set your timezone (IANA name such as Europe/Paris)",
  auth: "user",
  body: timezoneSchema,
  response: z.object({ success: z.literal(true), timezone: z.string() }),
  errors: ["VALIDATION_ERROR"],
});

export const getOnboarding = contract({
  method: "GET",
  path: "/api/user/onboarding",
  tag,
  summary: "Onboarding status",
  auth: "user",
  response: onboardingStatus,
});

export const completeOnboarding = contract({
  method: "POST",
  path: "/api/user/onboarding",
  tag,
  summary: "Complete onboarding (idempotent)",
  description:
    "Sets your name, job title and preferred style and saves the answers as `preferences`. A second call updates them and keeps the first `completedAt` (always 200). `createOrg: true` with `orgName` creates an organization with you as owner and moves the calling session into it. `inviteEmails` (≤20) invites each address as a member of that organization (or of your current one, Owner or Admin only) and e-mails a sign-up link; members and addresses with a pending invitation are skipped.",
  auth: "user",
  body: onboardingSchema,
  response: onboardingStatus.extend({
    organization: z.object({ id: z.string(), name: z.string(), slug: z.string(), plan: z.string(), role: z.literal("owner") }).nullable(),
    invitations: z.object({ recorded: z.array(z.string()), skipped: z.array(z.string()), sent: z.boolean() }),
  }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN"],
});

export const onboardingProgress = contract({
  method: "GET",
  path: "/api/user/onboarding-progress",
  tag,
  summary: "The 5-step getting-started checklist",
  description:
    "Computed from what exists: profile (job title or bio set), a project you created, a PRD on a project of yours, an invitation in one of your organizations, a share link you enabled (exports will count too once they exist).",
  auth: "user",
  response: z.object({
    steps: z.array(
      z.object({
        id: z.enum(["profile", "project", "prd", "invite", "share"]),
        title: z.string(),
        completed: z.boolean(),
        link: z.string(),
      }),
    ),
    completedCount: z.number(),
    total: z.literal(5),
  }),
});

export const recordActivity = contract({
  method: "POST",
  path: "/api/user/activity",
  tag,
  summary: "Record that you are active",
  description: "Writes `lastActiveAt` at most once per 5 minutes; pings inside the window answer 200 with `recorded: false` and write nothing.",
  auth: "user",
  response: z.object({ success: z.literal(true), recorded: z.boolean(), lastActiveAt: z.string().nullable() }),
});

export const dataExport = contract({
  method: "GET",
  path: "/api/user/data-export",
  tag,
  summary: "Download all your data (JSON file)",
  description:
    "A `Content-Disposition: attachment` JSON file: profile, onboarding answers, memberships, projects you created with their PRDs and versions, comments you wrote, memories, personal AI keys (masked), REST API key metadata (no hashes) and notifications. Nothing of other users.",
  auth: "user",
  responseType: "application/json",
});

export const deleteAccount = contract({
  method: "DELETE",
  path: "/api/user/delete-account",
  tag,
  // Deletes the organizations where the caller is the only member.
  scope: "admin",
  summary: "Permanently delete your account",
  description:
    "Body `{confirmEmail}` must be your account e-mail. Refused with 409 OWNERSHIP_TRANSFER_REQUIRED (and `organizations: [{id, name}]`) while you are the only owner of an organization with other members. Organizations where you are the only member are deleted with their data; elsewhere your projects and comments stay with the organization without an author.",
  auth: "user",
  body: deleteAccountSchema,
  response: z.object({
    success: z.literal(true),
    deletedOrganizations: z.array(z.object({ id: z.string(), name: z.string() })),
    leftOrganizations: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
  errors: ["VALIDATION_ERROR", "OWNERSHIP_TRANSFER_REQUIRED"],
});
