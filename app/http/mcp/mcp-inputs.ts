import { z } from "zod/v4";
import { PRD_STYLES } from "~/domain/prd/prd.schema";

/** The MCP tools' inputs (docs/mcp.md), used by mcp-tools.server.ts. */

const projectId = z.string().trim().min(1).max(100).describe("The project's id (from search_projects or create_project)");

/**
 * Each tool's input, built once: the SDK validates a call's arguments with it
 * and lists it as JSON Schema. Built per request, zod's schema objects were a
 * large share of an MCP request's CPU (docs/benchmarks.md, "MCP").
 */
export const INPUT = {
  search_projects: z.object({
    query: z.string().trim().max(200).optional().describe("Words to find in project names, descriptions and PRDs"),
    status: z
      .string()
      .trim()
      .max(200)
      .optional()
      .describe("One status or a comma-separated list: DRAFT, IN_PROGRESS, READY_FOR_PRD, IN_REVIEW, APPROVED, COMPLETED, ARCHIVED"),
    limit: z.number().int().min(1).max(50).optional().describe("At most this many projects (default 20)"),
  }),
  get_project: z.object({ projectId }),
  get_prd: z.object({
    projectId,
    section: z.string().trim().min(1).max(200).optional().describe('A heading of the PRD, e.g. "Goals" or "User Stories"'),
  }),
  create_project: z.object({
    name: z.string().trim().min(1).max(200).describe("The project's name"),
    description: z.string().trim().max(5000).optional().describe("What the product or feature is, in a few sentences"),
    templateId: z.string().trim().max(100).optional().describe("A PRD template's id; the builder asks that template's questions"),
  }),
  add_conversation_answer: z.object({ projectId, answer: z.string().trim().min(1).max(10_000).describe("Your answer to the builder's current question") }),
  generate_prd: z.object({
    projectId,
    style: z
      .enum(PRD_STYLES)
      .optional()
      .describe(`The PRD's style: ${PRD_STYLES.join(", ")} (default comprehensive)`),
  }),
  check_prd: z.object({ projectId }),
  score_prd: z.object({ projectId }),
  coach_prd: z.object({ projectId }),
  list_comments: z.object({ projectId }),
  add_comment: z.object({
    projectId,
    content: z.string().trim().min(1).max(10_000).describe("The comment (Markdown; @Name mentions a member)"),
    section: z.string().trim().max(200).optional().describe("The PRD section (heading) the comment is about"),
  }),
  derive_user_stories: z.object({ projectId }),
  list_trackers: z.object({}),
  send_stories_to_tracker: z.object({
    projectId,
    connectionId: z.string().min(1).describe("A tracker from list_trackers"),
    target: z.string().min(1).max(200).describe("Where the issues go: a GitHub repository owner/name, a Linear team id, a Jira project key"),
    outputId: z.string().min(1).optional().describe("Saved user stories (derive_user_stories answers with its outputId); or give markdown"),
    markdown: z.string().max(200_000).optional().describe("Stories as Markdown, instead of outputId"),
    preview: z.boolean().default(true).describe("true: only say what would be sent"),
  }),
};
