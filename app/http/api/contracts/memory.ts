import { z } from "zod/v4";
import { MEMORY_CATEGORIES, MEMORY_TYPES } from "~/ai/schemas";
import { createMemorySchema, deleteMemoryQuery, extractMemorySchema, listMemoryQuery } from "~/domain/memory/memory.schema";
import { contract } from "../contract";
import { AI_ERRORS } from "./ai-shapes";
import { success } from "./shapes";

const tag = "Memory";

const memoryShape = z.object({
  id: z.string(),
  userId: z.string(),
  memoryType: z.enum(MEMORY_TYPES),
  category: z.enum(MEMORY_CATEGORIES),
  content: z.string(),
  summary: z.string(),
  importance: z.number().int().min(1).max(10),
  isActive: z.boolean(),
  sourceProjectId: z.string().nullable(),
  sourceConversation: z.array(z.unknown()).nullable(),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
});

export const listMemories = contract({
  method: "GET",
  path: "/api/memory",
  tag,
  summary: "Your memories, most important and most recently used first",
  description:
    "Memories are strictly per user. `limit` 1–200 (default 20); filter by `category` and `type` (memoryType); `active=false` includes soft-deleted memories. AI prompts include your active memories, most important first, and mark them used.",
  auth: "user",
  query: listMemoryQuery,
  response: z.object({ memories: z.array(memoryShape) }),
  errors: ["VALIDATION_ERROR"],
});

export const createMemory = contract({
  method: "POST",
  path: "/api/memory",
  tag,
  summary: "Remember something",
  description: "`importance` 1–10 (default 5). `summary` defaults to the first sentence of `content`. `sourceProjectId` must be a project you can read.",
  auth: "user",
  body: createMemorySchema,
  successStatus: 201,
  response: z.object({ memory: memoryShape }),
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
});

export const deleteMemory = contract({
  method: "DELETE",
  path: "/api/memory",
  tag,
  summary: "Forget a memory (soft delete)",
  description: "`?id=<memoryId>`. The memory becomes inactive: AI prompts stop using it, and it is listed only with `active=false`.",
  auth: "user",
  query: deleteMemoryQuery,
  response: success,
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
});

export const extractMemories = contract({
  method: "POST",
  path: "/api/memory/extract",
  tag,
  summary: "Extract and save memories from a conversation",
  description:
    "`conversation`: at most 50 messages of role user or assistant, each at most 10,000 characters. Uses your AI provider settings (or the offline drafter). What is extracted is saved, except near-duplicates of your active memories. `extracted` counts what was found, `saved` what was kept.",
  auth: "user",
  rateLimit: "ai",
  body: extractMemorySchema,
  response: z.object({ extracted: z.number().int(), saved: z.number().int(), memories: z.array(memoryShape), model: z.string(), provider: z.string() }),
  errors: [...AI_ERRORS, "NOT_FOUND"],
});
