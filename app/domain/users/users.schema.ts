import { z } from "zod/v4";
import { PRD_STYLES } from "../prd/prd.schema";

/** Input schemas of the user account area, shared by /api/user/* and the settings and onboarding pages. */

/** "" (an emptied form field) or null clears an optional text field. */
const clearable = (schema: z.ZodString) => z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), schema.nullable().optional());

const style = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(PRD_STYLES, { error: `Style must be one of ${PRD_STYLES.join(", ")}` }));

const avatarUrl = z
  .string()
  .trim()
  .max(2000, "The avatar URL is too long")
  .refine((v) => {
    try {
      const url = new URL(v);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "The avatar must be an http or https URL");

export const updateProfileSchema = z
  .object({
    name: z.string().trim().min(1, "Name is required").max(100, "Name must be at most 100 characters").optional(),
    jobTitle: clearable(z.string().trim().max(100, "Job title must be at most 100 characters")),
    bio: clearable(z.string().trim().max(1000, "Bio must be at most 1000 characters")),
    avatar: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), avatarUrl.nullable().optional()),
    preferredStyle: z.preprocess((v) => (v === "" ? null : v), style.nullable().optional()),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: "Send at least one of name, jobTitle, bio, avatar, preferredStyle",
    path: ["form"],
  });
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

/** Same rule as isValidTimezone in users.server.ts, kept here so the schema has no server imports. */
function isIanaTimezone(tz: string) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const timezoneSchema = z.object({
  timezone: z
    .string({ error: "Timezone is required" })
    .trim()
    .min(1, "Timezone is required")
    .refine(isIanaTimezone, "Use an IANA timezone such as Europe/Paris"),
});
export type TimezoneInput = z.infer<typeof timezoneSchema>;

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

export const MAX_INVITES = 20;

export const onboardingSchema = z
  .object({
    fullName: required("Full name", 100),
    jobTitle: required("Job title", 100),
    company: required("Company", 100),
    useCase: required("Use case", 500),
    teamSize: required("Team size", 50),
    prdStyle: style,
    interests: z.array(z.string().trim().min(1).max(50), { error: "interests must be a list of strings" }).max(20),
    createOrg: z.boolean().default(false),
    orgName: z.string().trim().max(100, "Organization name must be at most 100 characters").optional(),
    inviteEmails: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .pipe(z.email({ error: "Each invitation needs a valid e-mail address" })),
      )
      .max(MAX_INVITES, `At most ${MAX_INVITES} invitations at once`)
      .default([]),
  })
  .superRefine((v, ctx) => {
    if (v.createOrg && !v.orgName) ctx.addIssue({ code: "custom", path: ["orgName"], message: "Name the organization to create" });
  });
export type OnboardingInput = z.infer<typeof onboardingSchema>;

export const deleteAccountSchema = z.object({
  confirmEmail: z.string({ error: "Type your account e-mail to confirm" }).trim().min(1, "Type your account e-mail to confirm"),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
