import { z } from "zod/v4";
import { PRD_STYLES } from "~/ai/schemas";
import { PROVIDER_IDS } from "~/ai/types";
import { formBoolean } from "../form-fields";

/** Inputs of chat, the conversational builder and PRD generation. */

export const MAX_MESSAGE_CHARS = 20_000;

/**
 * A message of a conversation the caller sends. Only `user` and `assistant`:
 * the system prompt is the app's (its instructions, the template's and the
 * user's saved memory), never text a caller can write.
 */
const message = z.object({
  role: z.enum(["user", "assistant"], { error: "role must be user or assistant (the system prompt is set by the app)" }),
  content: z.string({ error: "content is required" }).max(MAX_MESSAGE_CHARS, `content must be at most ${MAX_MESSAGE_CHARS} characters`),
});

export const providerField = z.enum(PROVIDER_IDS, { error: `provider must be one of ${PROVIDER_IDS.join(", ")}` }).optional();
const projectIdField = z.string().trim().min(1).max(100).optional();

export const chatSchema = z.object({
  messages: z
    .array(message, { error: "messages is required: an array of {role, content}" })
    .min(1, "messages needs at least one message")
    .max(100, "messages may hold at most 100 messages")
    .refine((list) => list.some((m) => m.role === "user" && m.content.trim()), "messages needs a user message with content"),
  provider: providerField,
  projectId: projectIdField,
});
export type ChatInput = z.infer<typeof chatSchema>;

export const projectChatSchema = z.object({
  message: z.string({ error: "message is required" }).trim().min(1, "message is required").max(10_000, "message must be at most 10,000 characters"),
  conversationHistory: z.array(message).max(100, "conversationHistory may hold at most 100 messages").optional(),
  provider: providerField,
});
export type ProjectChatInput = z.infer<typeof projectChatSchema>;

export const generatePrdSchema = z.object({
  projectId: z.string({ error: "projectId is required" }).trim().min(1, "projectId is required").max(100),
  style: z.preprocess(
    (v) => (v === "" || v === null ? undefined : typeof v === "string" ? v.trim().toLowerCase() : v),
    z.enum(PRD_STYLES, { error: `style must be one of ${PRD_STYLES.join(", ")}` }).default("comprehensive"),
  ),
  regenerate: formBoolean.default(false),
  provider: providerField,
});
export type GeneratePrdInput = z.infer<typeof generatePrdSchema>;

export const CHAT_EXPORT_FORMATS = ["pdf", "csv", "json"] as const;
export const chatExportQuery = z.object({
  format: z.enum(CHAT_EXPORT_FORMATS, { error: `format must be one of ${CHAT_EXPORT_FORMATS.join(", ")}` }).default("json"),
});
