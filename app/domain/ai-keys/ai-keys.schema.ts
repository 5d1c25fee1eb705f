import { z } from "zod/v4";
import { PROVIDER_IDS } from "~/ai/types";

export const providerSchema = z.enum(PROVIDER_IDS, {
  error: `provider must be one of ${PROVIDER_IDS.join(", ")}`,
});

/** A personal or organization AI provider key (BYOK). The key is write-only. */
export const addProviderKeySchema = z.object({
  provider: providerSchema,
  key: z
    .string({ error: "key is required" })
    .trim()
    .min(1, "key is required")
    .max(500, "key must be at most 500 characters")
    .refine((k) => !/\s/.test(k), "key must not contain spaces"),
  name: z
    .string()
    .trim()
    .max(100, "name must be at most 100 characters")
    .optional()
    .transform((v) => v || undefined),
  verify: z
    .boolean({ error: "verify must be true or false" })
    .optional()
    .describe(
      "Test the key with the provider before saving it (one free call). A key the provider rejects is not saved (400 VALIDATION_ERROR, details path `key`, plus `connection`); any other outcome saves it and answers with `connection`.",
    ),
});
export type AddProviderKeyInput = z.infer<typeof addProviderKeySchema>;
