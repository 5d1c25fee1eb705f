import { z } from "zod/v4";

/** Search modes named by the spec (search-modes.server.ts). */
export const SEARCH_MODES = ["keyword", "semantic", "hybrid"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** Where a keyword matched, in ranking weight order. */
export const SEARCH_FIELDS = ["name", "description", "content"] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export const searchQuerySchema = z.object({
  q: z.string({ error: "q is required" }).trim().min(1, "q is required").max(200, "q must be at most 200 characters"),
  mode: z.enum(SEARCH_MODES, { error: `mode must be one of ${SEARCH_MODES.join(", ")}` }).default("keyword"),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
  /** One status or a comma-separated list (checked by the domain: 400 INVALID_STATUS). */
  status: z.string().trim().max(200).optional(),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;
