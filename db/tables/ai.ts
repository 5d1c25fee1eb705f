/** The AI engine: provider keys, builder Q&A, memories, scores, outputs, usage log, embeddings. */

export type AiProviderId = "provider_a" | "provider_b" | "provider_c";
export type AiKeySource = "personal" | "organization" | "platform" | "builtin";

export interface AiProviderKeysTable {
  id: string;
  scope: "user" | "organization";
  userId: string | null;
  orgId: string | null;
  provider: AiProviderId;
  name: string | null;
  keyEncrypted: string;
  /** Masked form shown in lists, e.g. "sk-…a1b2". */
  keyHint: string;
  createdById: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface ProjectQaPairsTable {
  id: string;
  projectId: string;
  userId: string | null;
  position: number;
  /** The question the assistant asked. */
  question: string;
  /** The user's answer (the message they sent). */
  answer: string;
  /** The assistant's reply to the answer (acknowledgement and next question). */
  response: string;
  nextQuestion: string | null;
  model: string;
  createdAt: string;
}

export interface MemoriesTable {
  id: string;
  userId: string;
  memoryType: "preference" | "decision" | "project_context" | "feedback";
  category: "technical" | "business" | "process" | "style" | "team";
  content: string;
  summary: string;
  importance: number;
  isActive: number;
  sourceProjectId: string | null;
  sourceConversation: string | null;
  lastUsedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ProjectScoresTable {
  id: string;
  projectId: string;
  overallScore: number;
  breakdown: string;
  feedback: string;
  prdVersionId: string | null;
  model: string;
  createdById: string | null;
  createdAt: string;
}

export interface AiOutputsTable {
  id: string;
  projectId: string;
  kind: string;
  variant: string | null;
  title: string;
  content: string;
  data: string | null;
  model: string;
  truncated: number;
  createdById: string | null;
  createdAt: string;
}

export interface AiCallsTable {
  id: string;
  orgId: string;
  userId: string | null;
  projectId: string | null;
  task: string;
  provider: string;
  model: string;
  keySource: AiKeySource;
  inputTokens: number;
  outputTokens: number;
  outcome: "ok" | "truncated" | "error" | "aborted" | "invalid";
  durationMs: number;
  createdAt: string;
}

export interface ProjectEmbeddingsTable {
  projectId: string;
  orgId: string;
  model: string;
  contentHash: string;
  dims: number;
  vector: Buffer;
  updatedAt: string;
}
