import { z } from "zod/v4";
import { MEMORY_CATEGORIES, MEMORY_TYPES } from "~/ai/schemas";
import { providerField } from "../builder/builder.schema";
import { formBoolean } from "../form-fields";

/** Inputs of the per-user memory store (docs/ai.md, "Memory"). */

export const MAX_EXTRACT_MESSAGES = 50;
export const MAX_EXTRACT_MESSAGE_CHARS = 10_000;

const memoryType = z.enum(MEMORY_TYPES, { error: `memoryType must be one of ${MEMORY_TYPES.join(", ")}` });
const category = z.enum(MEMORY_CATEGORIES, { error: `category must be one of ${MEMORY_CATEGORIES.join(", ")}` });
const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

export const listMemoryQuery = z.object({
  limit: z.coerce.number({ error: "limit must be a number" }).int().min(1, "limit must be at least 1").max(200, "limit must be at most 200").default(20),
  category: z.preprocess(emptyToUndefined, category.optional()),
  type: z.preprocess(emptyToUndefined, memoryType.optional()),
  /** false includes soft-deleted memories. */
  active: z.preprocess(emptyToUndefined, formBoolean.default(true)),
});
export type ListMemoryQuery = z.infer<typeof listMemoryQuery>;

const conversationMessage = z.object({
  role: z.enum(["user", "assistant"], { error: "role must be user or assistant" }),
  content: z
    .string({ error: "content is required" })
    .max(MAX_EXTRACT_MESSAGE_CHARS, `each message may hold at most ${MAX_EXTRACT_MESSAGE_CHARS.toLocaleString("en")} characters`),
});

export const createMemorySchema = z.object({
  memoryType,
  category,
  content: z.string({ error: "content is required" }).trim().min(1, "content is required").max(2000, "content must be at most 2,000 characters"),
  summary: z.preprocess(emptyToUndefined, z.string().trim().max(200, "summary must be at most 200 characters").optional()),
  sourceProjectId: z.preprocess(emptyToUndefined, z.string().trim().max(100).optional()),
  sourceConversation: z.array(conversationMessage).max(MAX_EXTRACT_MESSAGES).optional(),
  importance: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "importance must be a whole number from 1 to 10" })
      .int("importance must be a whole number from 1 to 10")
      .min(1, "importance must be from 1 to 10")
      .max(10, "importance must be from 1 to 10")
      .default(5),
  ),
});
export type CreateMemoryInput = z.infer<typeof createMemorySchema>;

export const deleteMemoryQuery = z.object({
  id: z.string({ error: "id is required" }).trim().min(1, "id is required").max(100),
});

export const extractMemorySchema = z.object({
  conversation: z
    .array(conversationMessage, { error: "conversation is required: an array of {role, content}" })
    .min(1, "conversation needs at least one message")
    .max(MAX_EXTRACT_MESSAGES, `conversation may hold at most ${MAX_EXTRACT_MESSAGES} messages`),
  projectId: z.preprocess(emptyToUndefined, z.string().trim().max(100).optional()),
  provider: providerField,
});
export type ExtractMemoryInput = z.infer<typeof extractMemorySchema>;
