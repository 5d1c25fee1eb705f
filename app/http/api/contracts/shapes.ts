import { z } from "zod/v4";

/** Response shapes shared by several contracts (documentation only). */

export const success = z.object({ success: z.literal(true) });

export const userShape = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  timezone: z.string(),
  isSuperadmin: z.boolean(),
  createdAt: z.string(),
});

export const organizationShape = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  plan: z.enum(["free", "starter", "pro", "enterprise"]),
  role: z.enum(["owner", "admin", "member", "viewer"]),
});

export const accountShape = z.object({ user: userShape, organization: organizationShape });

export const errorShape = z.object({
  error: z.string(),
  code: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** "true"/"false"/"1"/"0" in a query string (z.coerce.boolean would read "false" as true). */
export const queryBoolean = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/** The query an OAuth service redirects the browser back with (RFC 6749 §4.1.2): `code` and `state`, or `error`. */
export const oauthCallbackQuery = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});
