import { z } from "zod/v4";

export const createApiKeySchema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100),
  expiresAt: z
    .union([z.iso.datetime({ offset: true, error: "Use an ISO 8601 date-time" }), z.iso.date(), z.literal(""), z.null()])
    .optional()
    .transform((v) => (v ? new Date(v).toISOString() : null)),
  rateLimit: z.coerce.number().int().min(1).max(100_000).optional(),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

export const API_KEY_PATTERN = /^svc_[0-9a-f]{40}$/;
