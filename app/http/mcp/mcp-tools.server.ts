import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ZodError } from "zod/v4";
import { collect } from "~/ai/run.server";
import type { Actor } from "~/domain/actor";
import { startCoach } from "~/domain/ai-tools/coach.server";
import { checkProjectPrd } from "~/domain/prd/check.server";
import { scoreProject } from "~/domain/ai-tools/score.server";
import { startUserStories } from "~/domain/ai-tools/writing.server";
import { projectChat } from "~/domain/builder/conversation.server";
import { generatePrd } from "~/domain/builder/generate.server";
import { generatePrdSchema, projectChatSchema } from "~/domain/builder/builder.schema";
import { createComment, listComments } from "~/domain/collaboration/comments.server";
import { createCommentSchema } from "~/domain/collaboration/collaboration.schema";
import { AppError } from "~/domain/errors";
import { getPrd } from "~/domain/prd/prd.server";
import { listProjects } from "~/domain/projects/list.server";
import { createProject, getProject } from "~/domain/projects/projects.server";
import { createProjectSchema, listProjectsSchema } from "~/domain/projects/projects.schema";
import { searchProjects } from "~/domain/search/search-modes.server";
import { searchQuerySchema } from "~/domain/search/search.schema";
import { listTrackerConnections } from "~/domain/trackers/connections.server";
import { previewStories, sendStories } from "~/domain/trackers/sync.server";
import { sendStoriesSchema } from "~/domain/trackers/trackers.schema";
import { appUrl } from "~/config.server";
import { asStorageError } from "~/ops/storage-errors.server";
import { logger } from "~/utils/log.server";
import type { Contract } from "../api/contract";
import * as aiTools from "../api/contracts/ai-tools";
import * as builder from "../api/contracts/builder";
import * as collaboration from "../api/contracts/collaboration";
import * as prd from "../api/contracts/prd";
import * as projects from "../api/contracts/projects";
import * as search from "../api/contracts/search";
import * as trackers from "../api/contracts/trackers";
import { INPUT } from "./mcp-inputs";
import { prdHeadings, prdSection } from "./prd-sections";
import { guard } from "../policy/guard.server";

/**
 * The MCP tools and resources (docs/mcp.md). Every tool is guarded by the
 * /api contract of the endpoint it mirrors, through the policy every door
 * shares (app/http/policy/guard.server.ts: role, key scope, plan, feature
 * flag, AI rate and concurrency), then calls that endpoint's domain function.
 * Nothing here decides business rules.
 */

export const RESOURCE_LIMIT = 200;

/** The tools, in the order tools/list gives them, with the line the settings page and docs show. */
export const MCP_TOOLS = [
  { name: "search_projects", summary: "Find projects by text and status (or list the newest)." },
  { name: "get_project", summary: "A project's fields." },
  { name: "get_prd", summary: "A project's PRD as Markdown, whole or one section." },
  { name: "create_project", summary: "Create a project (optionally from a template)." },
  { name: "add_conversation_answer", summary: "Answer the PRD builder's question; returns its next question." },
  { name: "generate_prd", summary: "Generate the PRD from the builder's answers (works offline, no AI key needed)." },
  { name: "check_prd", summary: "Check the PRD against its template and the writing rules." },
  { name: "score_prd", summary: "Score the PRD 0–100 with a breakdown." },
  { name: "coach_prd", summary: "A structured review: strengths, improvements, missing sections." },
  { name: "list_comments", summary: "The project's comment threads." },
  { name: "add_comment", summary: "Comment on the project, optionally on one PRD section." },
  { name: "derive_user_stories", summary: "User stories derived from the project's PRD." },
  { name: "list_trackers", summary: "The issue trackers (GitHub, Linear, Jira) the organization has connected." },
  { name: "send_stories_to_tracker", summary: "Preview, then send a project's saved user stories to a tracker; re-sending updates." },
] as const;
export type McpToolName = (typeof MCP_TOOLS)[number]["name"];

const summaryOf = (name: McpToolName) => MCP_TOOLS.find((t) => t.name === name)!.summary;

/** A plain message for anything a tool throws: AppError and validation messages as they are, the rest hidden. */
export function toolErrorMessage(error: unknown, requestId?: string): string {
  const converted = asStorageError(error, requestId);
  if (converted instanceof AppError) return `${converted.code}: ${converted.message}`;
  if (converted instanceof ZodError) {
    const first = converted.issues[0];
    return `VALIDATION_ERROR: ${first ? `${first.path.length ? `${first.path.join(".")}: ` : ""}${first.message}` : "Invalid input"}`;
  }
  logger.error("[mcp] tool failed", { requestId, error });
  return "INTERNAL_ERROR: Something went wrong on our side";
}

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
const json = (value: unknown): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  structuredContent: (value && typeof value === "object" && !Array.isArray(value) ? value : { result: value }) as Record<string, unknown>,
});

/**
 * One JSON Schema validator for every request's server: the SDK would build
 * a new Ajv instance per server (a quarter of an MCP request's CPU,
 * docs/benchmarks.md, "MCP").
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** A server for one request, acting as `actor`. */
export function createMcpServer(actor: Actor, requestId?: string) {
  const server = new McpServer({ name: "prd-studio", version: "1.0.0" }, { capabilities: { tools: {}, resources: {} }, jsonSchemaValidator });
  const base = appUrl();
  const projectUrl = (id: string) => `${base}/projects/${encodeURIComponent(id)}`;

  /**
   * Runs a tool body under its contract's policy (app/http/policy/guard.server.ts: role, key scope,
   * plan, feature flag, and for AI contracts the AI rate and a concurrency slot, given back when the
   * body ends); refusals and domain errors become `isError` results with the plain message.
   */
  const run = async (contract: Contract<any, any, any>, body: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    let release: (() => void) | undefined;
    try {
      ({ release } = await guard(actor, contract));
      return await body();
    } catch (error) {
      return { isError: true, content: [{ type: "text", text: toolErrorMessage(error, requestId) }] };
    } finally {
      release?.();
    }
  };

  server.registerTool(
    "search_projects",
    {
      description: `${summaryOf("search_projects")} Without a query, lists the organization's projects you can read, most recently updated first.`,
      inputSchema: INPUT.search_projects,
      annotations: { readOnlyHint: true },
    },
    ({ query, status, limit }) => {
      if (query) {
        return run(search.search, async () => {
          const found = await searchProjects(actor, searchQuerySchema.parse({ q: query, status, limit: limit ?? 20 }));
          return json({
            projects: found.results.map((r) => ({ id: r.projectId, name: r.name, status: r.status, updatedAt: r.updatedAt, url: projectUrl(r.projectId) })),
            total: found.total,
          });
        });
      }
      return run(projects.listProjects, async () => {
        const list = await listProjects(actor, listProjectsSchema.parse({ status, limit: limit ?? 20 }));
        return json({
          projects: list.projects.map((p) => ({ id: p.id, name: p.name, status: p.status, updatedAt: p.updatedAt, url: projectUrl(p.id) })),
          total: list.total,
        });
      });
    },
  );

  server.registerTool(
    "get_project",
    { description: summaryOf("get_project"), inputSchema: INPUT.get_project, annotations: { readOnlyHint: true } },
    ({ projectId: id }) => run(projects.getProject, async () => json({ ...(await getProject(actor, id)), url: projectUrl(id) })),
  );

  server.registerTool(
    "get_prd",
    {
      description: `${summaryOf("get_prd")} With \`section\`, only that section (matched by heading text, case-insensitive); when there is no such heading the answer lists the headings there are.`,
      inputSchema: INPUT.get_prd,
      annotations: { readOnlyHint: true },
    },
    ({ projectId: id, section }) =>
      run(prd.getPrd, async () => {
        const { content } = await getPrd(actor, id);
        if (!section) return text(content);
        const found = prdSection(content, section);
        if ("content" in found) return text(found.content);
        const list = found.available.length ? found.available.map((h) => `- ${h}`).join("\n") : "(the PRD has no headings)";
        return { isError: true, content: [{ type: "text", text: `NOT_FOUND: No section "${section}" in this PRD. Available sections:\n${list}` }] };
      }),
  );

  server.registerTool(
    "create_project",
    {
      description: summaryOf("create_project"),
      inputSchema: INPUT.create_project,
    },
    (input) =>
      run(projects.createProject, async () => {
        const project = await createProject(actor, createProjectSchema.parse(input));
        return json({ ...project, url: projectUrl(project.id) });
      }),
  );

  server.registerTool(
    "add_conversation_answer",
    {
      description: `${summaryOf("add_conversation_answer")} The answer is saved to the project; generate_prd uses the saved answers. nextQuestion is null when the builder has what it needs.`,
      inputSchema: INPUT.add_conversation_answer,
    },
    ({ projectId: id, answer }) =>
      run(builder.projectChat, async () => {
        const reply = await projectChat(actor, id, projectChatSchema.parse({ message: answer }));
        return json({ response: reply.response, nextQuestion: reply.nextQuestion, qaPairId: reply.qaPairId });
      }),
  );

  server.registerTool(
    "generate_prd",
    {
      description: summaryOf("generate_prd"),
      inputSchema: INPUT.generate_prd,
    },
    ({ projectId: id, style }) =>
      run(builder.generatePrd, async () => {
        const generated = await generatePrd(actor, generatePrdSchema.parse({ projectId: id, style, regenerate: true }));
        const sections = prdHeadings(generated.content)
          .filter((h) => h.level <= 2)
          .map((h) => h.title);
        return json({
          projectId: id,
          version: generated.version,
          style: generated.style,
          model: generated.model,
          summary: `${generated.content.split(/\s+/).filter(Boolean).length} words in ${sections.length} sections: ${sections.join(", ")}`,
          sections,
          truncated: generated.truncated,
          resource: `prd://projects/${id}`,
        });
      }),
  );

  server.registerTool(
    "check_prd",
    { description: summaryOf("check_prd"), inputSchema: INPUT.check_prd, annotations: { readOnlyHint: true } },
    ({ projectId: id }) => run(prd.checkPrd, async () => json(await checkProjectPrd(actor, id))),
  );

  server.registerTool("score_prd", { description: summaryOf("score_prd"), inputSchema: INPUT.score_prd }, ({ projectId: id }) =>
    run(aiTools.scoreProject, async () => json(await scoreProject(actor, id, {}))),
  );

  server.registerTool(
    "coach_prd",
    { description: `${summaryOf("coach_prd")} The review is also saved to the project.`, inputSchema: INPUT.coach_prd },
    ({ projectId: id }) =>
      run(aiTools.coach, async () => {
        const { content } = await getPrd(actor, id);
        const done = await collect(await startCoach(actor, { prdContent: content, projectId: id }));
        return json({ summary: done.fullContent, review: done.review, stakeholderViewId: done.stakeholderViewId });
      }),
  );

  server.registerTool(
    "list_comments",
    { description: summaryOf("list_comments"), inputSchema: INPUT.list_comments, annotations: { readOnlyHint: true } },
    ({ projectId: id }) => run(collaboration.listComments, async () => json({ comments: await listComments(actor, id) })),
  );

  server.registerTool(
    "add_comment",
    {
      description: summaryOf("add_comment"),
      inputSchema: INPUT.add_comment,
    },
    ({ projectId: id, content, section }) =>
      run(collaboration.createComment, async () => json(await createComment(actor, id, createCommentSchema.parse({ content, section })))),
  );

  server.registerTool(
    "derive_user_stories",
    { description: `${summaryOf("derive_user_stories")} The stories are also saved to the project's AI outputs.`, inputSchema: INPUT.derive_user_stories },
    ({ projectId: id }) =>
      run(aiTools.userStories, async () => {
        const { content } = await getPrd(actor, id);
        const done = await collect(await startUserStories(actor, { content, source: "prd", projectId: id }));
        return json({ stories: done.fullContent, outputId: done.outputId, truncated: done.truncated });
      }),
  );

  server.registerTool("list_trackers", { description: summaryOf("list_trackers"), inputSchema: INPUT.list_trackers }, () =>
    run(trackers.listTrackers, async () => {
      const { connections } = await listTrackerConnections(actor);
      // Never the webhook secret, whatever the key's role: an agent has no use for it.
      return json({
        trackers: connections.map(({ id, service, serviceName, accountLabel, targetKind }) => ({ id, service, serviceName, accountLabel, targetKind })),
      });
    }),
  );

  server.registerTool(
    "send_stories_to_tracker",
    {
      description: `${summaryOf("send_stories_to_tracker")} With preview: true (the default) nothing is sent: the answer lists each story as create or update. Send with preview: false. Stories already sent are updated, never duplicated.`,
      inputSchema: INPUT.send_stories_to_tracker,
    },
    ({ projectId: id, preview, ...input }) =>
      run(preview ? trackers.previewTrackerSend : trackers.sendToTracker, async () => {
        const body = sendStoriesSchema.parse(input);
        return json(preview ? await previewStories(actor, id, body) : await sendStories(actor, id, body));
      }),
  );

  server.registerResource(
    "prd",
    new ResourceTemplate("prd://projects/{projectId}", {
      list: async () => {
        await guard(actor, projects.listProjects);
        const list = await listProjects(actor, listProjectsSchema.parse({ limit: RESOURCE_LIMIT }));
        return {
          resources: list.projects.map((p) => ({ uri: `prd://projects/${p.id}`, name: `${p.name} (PRD)`, mimeType: "text/markdown" })),
        };
      },
    }),
    { title: "Project PRD", description: "A project's PRD as Markdown", mimeType: "text/markdown" },
    async (uri, variables) => {
      const id = String(Array.isArray(variables.projectId) ? variables.projectId[0] : variables.projectId);
      try {
        await guard(actor, prd.getPrd);
        const found = await getPrd(actor, id);
        return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: found.content }] };
      } catch (error) {
        throw new McpError(ErrorCode.InvalidParams, toolErrorMessage(error, requestId));
      }
    },
  );

  return server;
}
