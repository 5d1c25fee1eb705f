import { z } from "zod/v4";
import { chatExportQuery, chatSchema, generatePrdSchema, projectChatSchema } from "~/domain/builder/builder.schema";
import { contract } from "../contract";
import { AI_ERRORS, answeredShape, SSE_DESCRIPTION } from "./ai-shapes";
import { success } from "./shapes";

const tag = "Chat and PRD generation";
const params = z.object({ projectId: z.string() });

const qaPairShape = z.object({
  id: z.string(),
  position: z.number(),
  question: z.string().describe("The question the assistant asked"),
  answer: z.string().describe("The user's answer (the message sent)"),
  response: z.string().describe("The assistant's reply, which asks the next question"),
  nextQuestion: z.string().nullable(),
  model: z.string(),
  createdAt: z.string(),
});

export const chat = contract({
  method: "POST",
  path: "/api/chat",
  tag,
  summary: "Chat with the AI (non-streaming)",
  description:
    "`messages` is the conversation (roles `user` and `assistant` only: a `system` message is refused with 400, the system prompt is the app's), at most 100 messages. With `projectId` the project's template and current PRD are context (the caller must be able to read the project). Nothing is saved. `provider` picks a provider; otherwise the first with a key (personal, organization, platform), else the offline drafter (`model: builtin`).",
  auth: "user",
  rateLimit: "ai",
  body: chatSchema,
  response: z.object({ role: z.literal("assistant"), content: z.string(), truncated: z.boolean(), ...answeredShape }),
  errors: [...AI_ERRORS, "NOT_FOUND"],
});

const projectChatDescription =
  "The conversational PRD builder. `message` answers the question the assistant asked last (the template's first question to begin with; `conversationHistory`'s last assistant message when given). The reply acknowledges the answer and asks the next question. The pair is saved to the project (`qaPairId`); PRD generation uses the saved pairs. Needs edit rights on the project.";

export const projectChat = contract({
  method: "POST",
  path: "/api/projects/{projectId}/chat",
  tag,
  summary: "Answer the builder's question (non-streaming)",
  description: projectChatDescription,
  auth: "user",
  rateLimit: "ai",
  params,
  body: projectChatSchema,
  response: z.object({
    response: z.string(),
    qaPairId: z.string(),
    nextQuestion: z.string().nullable().describe("null when the builder has what it needs"),
    truncated: z.boolean(),
    covered: z.array(z.string()).optional().describe("Offline drafter: template sections the answers cover"),
    remaining: z.array(z.string()).optional(),
    ...answeredShape,
  }),
  errors: [...AI_ERRORS, "NOT_FOUND", "FORBIDDEN"],
});

export const conversationStream = contract({
  method: "POST",
  path: "/api/projects/{projectId}/conversation/stream",
  tag,
  summary: "Answer the builder's question (SSE)",
  description: `${projectChatDescription} ${SSE_DESCRIPTION} \`done\` adds \`response\`, \`qaPairId\` and \`nextQuestion\`; the pair is saved before \`done\` is sent.`,
  auth: "user",
  rateLimit: "ai",
  params,
  body: projectChatSchema,
  responseType: "text/event-stream",
  errors: [...AI_ERRORS, "NOT_FOUND", "FORBIDDEN"],
});

export const getConversation = contract({
  method: "GET",
  path: "/api/projects/{projectId}/conversation",
  tag,
  summary: "The builder conversation: saved question/answer pairs and the waiting question",
  auth: "user",
  params,
  response: z.object({ qaPairs: z.array(qaPairShape), nextQuestion: z.string().nullable(), complete: z.boolean() }),
  errors: ["NOT_FOUND"],
});

export const resetConversation = contract({
  method: "DELETE",
  path: "/api/projects/{projectId}/conversation",
  tag,
  summary: "Start the builder conversation over",
  description: "Deletes the saved question/answer pairs; the PRD and its versions stay.",
  auth: "user",
  params,
  response: success,
  errors: ["NOT_FOUND", "FORBIDDEN"],
});

const generateDescription =
  "Writes the PRD from the project's saved question/answer pairs, its template and the caller's memories, in `style` (default comprehensive). The result is saved as a new PRD version and `prd.generated` is emitted. A project that already has a PRD answers 409 CONFLICT unless `regenerate: true` (the previous PRD stays in the version history). Needs edit rights.";

const prdShape = z.object({
  projectId: z.string(),
  content: z.string(),
  style: z.string().nullable(),
  versionId: z.string().nullable(),
  versionNumber: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedBy: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
});

export const generatePrd = contract({
  method: "POST",
  path: "/api/generate-prd",
  tag,
  summary: "Generate the PRD (non-streaming)",
  description: generateDescription,
  auth: "user",
  rateLimit: "ai",
  body: generatePrdSchema,
  response: z.object({
    content: z.string(),
    style: z.string(),
    truncated: z.boolean(),
    prd: prdShape,
    version: z.object({ id: z.string().nullable(), number: z.number().nullable() }),
    qaPairsUsed: z.number(),
    ...answeredShape,
  }),
  errors: [...AI_ERRORS, "NOT_FOUND", "FORBIDDEN", "CONFLICT"],
});

export const generatePrdStream = contract({
  method: "POST",
  path: "/api/generate-prd/stream",
  tag,
  summary: "Generate the PRD (SSE)",
  description: `${generateDescription} ${SSE_DESCRIPTION} Progress follows the sections written; \`done\` adds \`prd\` and \`version\` once saved.`,
  auth: "user",
  rateLimit: "ai",
  body: generatePrdSchema,
  responseType: "text/event-stream",
  errors: [...AI_ERRORS, "NOT_FOUND", "FORBIDDEN", "CONFLICT"],
});

export const chatExport = contract({
  method: "GET",
  path: "/api/projects/{projectId}/chat-export",
  tag,
  summary: "Download the builder conversation (pdf, csv or json)",
  description:
    "A file download (`Content-Disposition: attachment`). CSV: one row per pair (position, question, answer, response, model, createdAt), UTF-8 with BOM; cells that a spreadsheet would run as a formula (starting with = + - @, tab or CR) are prefixed with an apostrophe.",
  auth: "user",
  params,
  query: chatExportQuery,
  responseType: ["application/pdf", "text/csv", "application/json"],
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
});
