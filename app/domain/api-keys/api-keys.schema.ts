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

export const createApiKeySchema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100),
  expiresAt: z
    .union([z.iso.datetime({ offset: true, error: "Use an ISO 8601 date-time" }), z.iso.date(), z.literal(""), z.null()])
    .optional()
    .transform((v) => (v ? new Date(v).toISOString() : null)),
  rateLimit: z.coerce.number().int().min(1).max(100_000).optional(),
  scopes: apiKeyScopesSchema.optional().transform((v) => (v ? withImpliedScopes(v) : undefined)),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

export const API_KEY_PATTERN = /^svc_[0-9a-f]{40}$/;
