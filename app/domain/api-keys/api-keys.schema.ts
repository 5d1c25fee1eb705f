import { z } from "zod/v4";
import { API_KEY_SCOPES, withImpliedScopes } from "./scopes";

/** `read`, `write`, `admin`; they nest (write includes read, admin includes both). */
export const apiKeyScopesSchema = z
  .array(z.enum(API_KEY_SCOPES, { error: "Each scope is one of read, write, admin" }), { error: "A list of scopes: read, write, admin" })
  .min(1, "Choose at least one scope")
  .max(10)
  .describe(
    "What the key may do, within its creator's role: `read` (GET), `write` (read plus changes), `admin` (everything, including organization administration such as creating keys, members, webhooks, billing and deleting the organization). Duplicates are ignored and implied scopes added. Omitted: the creator's full access (a key creating a key: that key's scopes).",
  );

/** The requests per minute a key may be given (`rateLimit`, Enterprise only); without one a key gets API_KEY_RATE_PER_MINUTE. */
export const API_KEY_RATE_LIMIT = { min: 1, max: 100_000 } as const;
const RATE_LIMIT_MESSAGE = `Rate limit must be a whole number of requests per minute from ${API_KEY_RATE_LIMIT.min} to ${API_KEY_RATE_LIMIT.max.toLocaleString("en-US")}`;

export const createApiKeySchema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100),
  expiresAt: z
    .union([z.iso.datetime({ offset: true, error: "Use an ISO 8601 date-time" }), z.iso.date(), z.literal(""), z.null()])
    .optional()
    .transform((v) => (v ? new Date(v).toISOString() : null)),
  rateLimit: z.coerce
    .number({ error: RATE_LIMIT_MESSAGE })
    .int(RATE_LIMIT_MESSAGE)
    .min(API_KEY_RATE_LIMIT.min, RATE_LIMIT_MESSAGE)
    .max(API_KEY_RATE_LIMIT.max, RATE_LIMIT_MESSAGE)
    .optional(),
  scopes: apiKeyScopesSchema.optional().transform((v) => (v ? withImpliedScopes(v) : undefined)),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

export const API_KEY_PATTERN = /^svc_[0-9a-f]{40}$/;
