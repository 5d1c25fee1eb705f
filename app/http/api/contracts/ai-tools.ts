import { z } from "zod/v4";
import { IMPROVEMENT_TYPES, roadmapSchema, scoreSchema, suggestionDraftSchema } from "~/ai/schemas";
import {
  codeSpecSchema,
  coachSchema,
  improveSchema,
  launchContentSchema,
  listOutputsQuery,
  OUTPUT_KINDS,
  roadmapInputSchema,
  scoreInputSchema,
  suggestionsInputSchema,
  technicalSpecsSchema,
  userStoriesSchema,
  wireframeSchema,
} from "~/domain/ai-tools/ai-tools.schema";
import { contract } from "../contract";
import { AI_ERRORS, answeredShape, SSE_DESCRIPTION } from "./ai-shapes";
import { success } from "./shapes";

const tag = "AI tools";
const projectNote =
  " With `projectId` the tool works in that project's context (template, name), needs edit rights there, and saves its result to the project (`outputId`; list them at GET /api/projects/{projectId}/ai-outputs).";
const stream = <B extends z.ZodType>(summary: string, path: string, body: B, extra: string) =>
  contract({
    method: "POST",
    path,
    tag,
    summary,
    description: `${extra} ${SSE_DESCRIPTION}`,
    auth: "user",
    rateLimit: "ai",
    body,
    responseType: "text/event-stream",
    errors: [...AI_ERRORS, "NOT_FOUND", "FORBIDDEN"],
  });

export const coach = stream(
  "PRD coach review (SSE)",
  "/api/ai/coach",
  coachSchema,
  "Reviews `prdContent`: streams a readable summary; the final `done` carries `review` {overallScore, executiveSummary, dimensions {clarity, completeness, userFocus, technicalFeasibility, metrics, riskAssessment} (0–100), strengths, improvements [{priority, suggestion}], missingSections, recommendations [{effort, impact, description}]}. With `projectId` the review is saved as a stakeholder view of the project (`kind: ai_review`, `stakeholderViewId` in `done`; needs the right to manage the project's sharing).",
);

export const listImprovements = contract({
  method: "GET",
  path: "/api/ai/improve",
  tag,
  summary: "The improvement types",
  auth: "user",
  response: z.object({
    improvementTypes: z.array(z.object({ type: z.enum(IMPROVEMENT_TYPES), id: z.enum(IMPROVEMENT_TYPES), label: z.string(), description: z.string() })),
  }),
});

export const improve = stream(
  "Improve text (SSE)",
  "/api/ai/improve",
  improveSchema,
  "Streams `content` rewritten by `improvementType` (see GET /api/ai/improve); `customPrompt` adds an instruction. Nothing is saved: `done` has the full rewritten text, `changed`, and `notes` (advice about the text, such as passive sentences, from the offline drafter; never part of the text).",
);

export const suggestions = contract({
  method: "POST",
  path: "/api/ai/suggestions",
  tag,
  summary: "3 to 5 suggestions for a PRD (non-streaming)",
  description: "Each suggestion: id (stable for the same suggestion), section, type, title, description, severity (high, medium, low).",
  auth: "user",
  rateLimit: "ai",
  body: suggestionsInputSchema,
  response: z.object({
    suggestions: z
      .array(suggestionDraftSchema.extend({ id: z.string() }))
      .min(3)
      .max(5),
    ...answeredShape,
  }),
  errors: [...AI_ERRORS, "NOT_FOUND", "FORBIDDEN"],
});

export const userStories = stream(
  "User stories with acceptance criteria (SSE)",
  "/api/ai/user-stories",
  userStoriesSchema,
  `Markdown stories (As a … I want … so that …) with Given/When/Then acceptance criteria, size and priority, from a PRD, a feature or requirements (\`source\`).${projectNote}`,
);

export const technicalSpecs = stream(
  "Technical specification (SSE)",
  "/api/ai/technical-specs",
  technicalSpecsSchema,
  `Markdown technical specification from \`prdContent\`; \`focusAreas\` get their own sections.${projectNote}`,
);

export const roadmap = contract({
  method: "POST",
  path: "/api/ai/roadmap",
  tag,
  summary: "Delivery roadmap (non-streaming)",
  description: `\`{roadmap}\`: phases (contiguous weeks: startWeek, durationWeeks) with milestones (week, successCriteria) and tasks (estimateDays, role), totalWeeks and risks, for \`teamSize\` (small, medium, large) and \`methodology\` (e.g. agile, scrum, kanban, waterfall, shape_up, lean).${projectNote}`,
  auth: "user",
  rateLimit: "ai",
  body: roadmapInputSchema,
  response: z.object({ roadmap: roadmapSchema, outputId: z.string().nullable(), ...answeredShape }),
  errors: [...AI_ERRORS, "NOT_FOUND", "FORBIDDEN"],
});

export const codeSpec = stream(
  "Code-level specification (SSE)",
  "/api/ai/code-spec",
  codeSpecSchema,
  `Markdown: module layout, TypeScript types, functions and endpoints, SQL tables, tests per acceptance criterion.${projectNote}`,
);

export const launchContent = stream(
  "Launch content (SSE)",
  "/api/ai/launch-content",
  launchContentSchema,
  `One of blog_post, press_release, social_media, email_announcement, demo_script, changelog (\`contentType\`), from the PRD in \`content\`.${projectNote}`,
);

export const wireframe = stream(
  "Mermaid diagram (SSE)",
  "/api/ai/wireframe",
  wireframeSchema,
  `The content chunks concatenate into Mermaid source (no code fences) of \`diagramType\`: user_flow and screen_layout and data_flow and system_architecture are flowcharts, sequence a sequenceDiagram, journey_map a journey. \`section\` limits it to one section of \`content\`.${projectNote}`,
);

const scoreShape = z.object({
  id: z.string(),
  overallScore: z.number(),
  breakdown: scoreSchema.shape.breakdown,
  feedback: scoreSchema.shape.feedback,
  prdVersionId: z.string().nullable(),
  model: z.string(),
  createdAt: z.string(),
});
const params = z.object({ projectId: z.string() });

export const scoreProject = contract({
  method: "POST",
  path: "/api/projects/{projectId}/score",
  tag,
  summary: "Score the project's PRD",
  description:
    "Scores the current PRD 0–100 with a breakdown (clarity, completeness, userFocus, technicalFeasibility, metrics, riskAssessment) and one line of feedback per part, and keeps the score in the project's history. 404 when the project has no PRD. Body optional: `{provider}`.",
  auth: "user",
  rateLimit: "ai",
  params,
  body: scoreInputSchema,
  successStatus: 201,
  response: z.object({ score: scoreShape, provider: answeredShape.provider, keySource: answeredShape.keySource }),
  errors: [...AI_ERRORS, "NOT_FOUND", "FORBIDDEN"],
});

export const getScore = contract({
  method: "GET",
  path: "/api/projects/{projectId}/score",
  tag,
  summary: "The latest score and its history",
  description: "`score` is null until the project has been scored. `history` lists up to 50 scores, newest first.",
  auth: "user",
  params,
  response: z.object({
    score: scoreShape.nullable(),
    history: z.array(z.object({ id: z.string(), overallScore: z.number(), breakdown: scoreSchema.shape.breakdown, model: z.string(), createdAt: z.string() })),
  }),
  errors: ["NOT_FOUND"],
});

const outputShape = z.object({
  id: z.string(),
  kind: z.enum(OUTPUT_KINDS),
  variant: z.string().nullable(),
  title: z.string(),
  content: z.string(),
  data: z.unknown().describe("Structured result (the roadmap object) or null"),
  model: z.string(),
  truncated: z.boolean(),
  createdBy: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  createdAt: z.string(),
});

export const listOutputs = contract({
  method: "GET",
  path: "/api/projects/{projectId}/ai-outputs",
  tag,
  summary: "AI tool results saved to the project, newest first",
  auth: "user",
  params,
  query: listOutputsQuery,
  response: z.object({ outputs: z.array(outputShape) }),
  errors: ["NOT_FOUND"],
});

export const deleteOutput = contract({
  method: "DELETE",
  path: "/api/projects/{projectId}/ai-outputs/{outputId}",
  tag,
  summary: "Delete a saved AI tool result",
  auth: "user",
  params: params.extend({ outputId: z.string() }),
  response: success,
  errors: ["NOT_FOUND", "FORBIDDEN"],
});
