import { z } from "zod/v4";
import { PRIORITIES, PROJECT_STATUSES } from "~/domain/projects/projects.schema";
import { SEARCH_FIELDS, SEARCH_MODES, searchQuerySchema } from "~/domain/search/search.schema";
import { contract } from "../contract";

const tag = "Search";

export const search = contract({
  method: "GET",
  path: "/api/search",
  tag,
  summary: "Search projects by keyword, meaning (semantic) or both (hybrid)",
  description: [
    "Full-text search over the name, description and PRD content of the projects the caller may read",
    "(the whole organization; viewers only the projects they collaborate on).",
    "`q` (1–200 characters) is split on white space; every term must match (AND), each term is taken literally",
    '(quotes, `*`, `:`, AND/OR/NOT are plain text), English word forms match each other ("payments" finds "payment"),',
    'and the last term also matches as a prefix once it has 3 or more characters ("onboa" and "pay" find "onboarding" and "payments"; a shorter last term matches whole words only).',
    "A `q` without any letter or digit is 400 VALIDATION_ERROR.",
    "Results are ranked by bm25 with the name weighted 10, the description 4 and the PRD content 1;",
    "`score` is −bm25 rounded to 3 decimals (higher is better; very common words score close to 0).",
    "`snippet` is HTML: the text is escaped and the matches are wrapped in `<mark>`…`</mark>`, so it is safe to render as HTML.",
    "`matchedIn` lists the fields that contain a match. `total` counts all matches; page with `limit` (1–50, default 20) and `offset`.",
    "`status` filters by one status or a comma-separated list (400 INVALID_STATUS for an unknown one).",
    "`mode=semantic` ranks by embedding similarity (cosine, `score` 0–1, results below 0.2 left out) using the caller's embedding provider",
    "(OpenAI or Gemini embeddings by personal, organization or platform key, or an OpenAI-compatible server); PRDs are embedded in the background when they change.",
    "`mode=hybrid` fuses the keyword and semantic rankings by reciprocal rank fusion (k = 60). Semantic-only hits have `matchedIn: []` and the description as snippet.",
    "When semantic ranking is not available (no embedding provider, empty index, provider failure) the answer is the keyword result:",
    "`mode` says which mode was actually used, `requestedMode` what was asked, and `notice` why.",
  ].join(" "),
  auth: "user",
  query: searchQuerySchema,
  response: z.object({
    results: z.array(
      z.object({
        projectId: z.string(),
        name: z.string(),
        status: z.enum(PROJECT_STATUSES),
        priority: z.enum(PRIORITIES).nullable(),
        updatedAt: z.string(),
        snippet: z.string(),
        matchedIn: z.array(z.enum(SEARCH_FIELDS)),
        score: z.number(),
      }),
    ),
    total: z.number(),
    mode: z.enum(SEARCH_MODES).describe("The mode actually used"),
    requestedMode: z.enum(SEARCH_MODES),
    notice: z.string().optional().describe("Why the requested mode was not used"),
    query: z.string(),
  }),
  errors: ["VALIDATION_ERROR", "INVALID_STATUS"],
});
