// Contracts of this area. Each exported contract is picked up by ./index.ts.
import { z } from "zod/v4";
import { npsSchema } from "~/domain/feedback/nps.schema";
import { upsertFlagSchema } from "~/domain/flags/flags.schema";
import { contract } from "../contract";
import { success } from "./shapes";

const flagShape = z.object({
  key: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  rolloutPercentage: z.number().nullable(),
  rules: z.object({
    allowUserIds: z.array(z.string()),
    denyUserIds: z.array(z.string()),
    allowOrgIds: z.array(z.string()),
    denyOrgIds: z.array(z.string()),
    plans: z.array(z.string()),
  }),
  source: z.enum(["builtin", "stored"]),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});

export const listFeatureFlags = contract({
  method: "GET",
  path: "/api/feature-flags",
  tag: "Feature flags",
  summary: "List every flag, stored and built-in (superadmin)",
  auth: "user",
  response: z.object({ flags: z.array(flagShape) }),
  errors: ["FORBIDDEN"],
});

export const upsertFeatureFlag = contract({
  method: "POST",
  path: "/api/feature-flags",
  tag: "Feature flags",
  summary: "Create or update a flag (superadmin)",
  scope: "admin",
  description:
    "201 when the key was not stored yet, 200 when it was updated; omitted fields keep their current (or built-in) values. Evaluation: user deny/allow, organization deny/allow, `plans` (other plans are off), `rolloutPercentage` (stable bucket of key + organization), then `enabled`.",
  auth: "user",
  body: upsertFlagSchema,
  successStatus: 201,
  alsoSuccess: [200],
  response: z.object({ flag: flagShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN"],
});

export const enabledFeatureFlags = contract({
  method: "GET",
  path: "/api/feature-flags/enabled",
  tag: "Feature flags",
  summary: "Every known flag evaluated for the caller",
  auth: "user",
  response: z.object({ flags: z.record(z.string(), z.boolean()) }),
});

export const getFeatureFlag = contract({
  method: "GET",
  path: "/api/feature-flags/{flagKey}",
  tag: "Feature flags",
  summary: "One flag evaluated for the caller; unknown keys are off (200, enabled false)",
  auth: "user",
  params: z.object({ flagKey: z.string() }),
  response: z.object({ key: z.string(), enabled: z.boolean() }),
});

export const deleteFeatureFlag = contract({
  method: "DELETE",
  path: "/api/feature-flags/{flagKey}",
  tag: "Feature flags",
  summary: "Remove a stored flag (superadmin): built-in keys return to their default, others are off",
  scope: "admin",
  auth: "user",
  params: z.object({ flagKey: z.string() }),
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const getNps = contract({
  method: "GET",
  path: "/api/feedback/nps",
  tag: "Feedback",
  summary: "Whether the NPS survey is due for the caller, and their last answer",
  description: "Due when the account is at least 7 days old or has created 3 projects, with no answer in 90 days and no dismissal in 30 days.",
  auth: "user",
  response: z.object({
    due: z.boolean(),
    lastResponse: z.object({ score: z.number(), comment: z.string().nullable(), createdAt: z.string() }).nullable(),
  }),
});

export const postNps = contract({
  method: "POST",
  path: "/api/feedback/nps",
  tag: "Feedback",
  summary: "Answer the NPS survey, or dismiss it for 30 days",
  description: "Body `{score: 0–10, comment?: ≤ 2000 chars}` or `{dismissed: true}`.",
  auth: "user",
  body: npsSchema,
  successStatus: 201,
  response: z.object({
    response: z.object({ id: z.string(), score: z.number().nullable(), comment: z.string().nullable(), dismissed: z.boolean(), createdAt: z.string() }),
  }),
  errors: ["VALIDATION_ERROR"],
});
