/**
 * Shared vocabulary of the AI engine: providers, the requests sent to a
 * model, the chunks that come back, and the tasks the product runs.
 * Nothing here touches the network or the database.
 */

export const PROVIDER_IDS = ["provider_a", "provider_b", "provider_c"] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];
/** What answered: one of the three providers, or the offline drafter. */
export type ModelSource = ProviderId | "builtin";

/** What a person reads for each provider; the ids (provider_a…) stay on the wire and never reach the interface. Long form, for lists and choices. */
export const PROVIDER_LABELS: Record<ProviderId, string> = {
  provider_a: "OpenAI (or an OpenAI-compatible server)",
  provider_b: "Anthropic",
  provider_c: "Google Gemini",
};
/** The same names, short, for sentences ("Your OpenAI key was saved", "Google Gemini rejected this key"). */
export const PROVIDER_SHORT: Record<ProviderId, string> = {
  provider_a: "OpenAI",
  provider_b: "Anthropic",
  provider_c: "Google Gemini",
};

export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** One call to a model. `system` and `messages` come from a prompt module. */
export interface ModelRequest {
  system: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature?: number;
  /**
   * Ask for JSON that matches this JSON Schema, through the provider's own
   * structured-output feature (OpenAI json_schema response format, Anthropic
   * forced tool use, Gemini responseSchema). The answer's text is the JSON.
   */
  json?: { name: string; description?: string; schema: Record<string, unknown> };
  signal?: AbortSignal;
}

export type ModelChunk =
  | { type: "text"; text: string }
  /** Always the last chunk of a stream that did not fail. */
  | { type: "end"; usage: Usage; truncated: boolean };

export interface ModelResult {
  text: string;
  usage: Usage;
  /** The model stopped because it reached maxTokens. */
  truncated: boolean;
}

export interface EmbeddingResult {
  vectors: number[][];
  model: string;
  usage: Usage;
}

/** A configured client for one provider with one key. Created per request. */
export interface ProviderClient {
  provider: ProviderId;
  model: string;
  stream(request: ModelRequest): AsyncIterable<ModelChunk>;
  complete(request: ModelRequest): Promise<ModelResult>;
  /** Only providers with an embeddings API (provider_a, provider_c). */
  embed?(texts: string[], signal?: AbortSignal): Promise<EmbeddingResult>;
}

/**
 * What a connection test learned from one cheap, unbilled call to a provider
 * (listing models, or counting the tokens of a word).
 */
export interface ProbeResult {
  /** How many models the endpoint lists; null when the call does not list them. */
  modelCount: number | null;
  /** Whether the configured model is among them; null when the answer cannot tell. */
  modelListed: boolean | null;
}

/** How a connection test failed (app/ai/connection.server.ts). */
export const CONNECTION_FAILURES = ["unauthorized", "not_found", "unreachable", "rate_limited", "error"] as const;
export type ConnectionFailure = (typeof CONNECTION_FAILURES)[number];

/** The outcome of a connection test; `message` and `detail` never contain the key. */
export type ConnectionResult =
  | { ok: true; provider: ProviderId; model: string; latencyMs: number; detail: string }
  | { ok: false; provider: ProviderId; reason: ConnectionFailure; message: string };

export interface ProviderCredentials {
  provider: ProviderId;
  apiKey: string;
  baseUrl?: string;
  model: string;
  embeddingModel?: string;
  timeoutMs: number;
  maxRetries: number;
}

/**
 * A provider call that failed: HTTP error, network error, timeout, abort or
 * an unreadable answer. `message` never contains the API key.
 */
export class ProviderError extends Error {
  readonly provider: ProviderId;
  /** HTTP status from the provider, when there was one. */
  readonly status?: number;
  /** The caller aborted (client went away); not the provider's fault. */
  readonly aborted: boolean;
  constructor(provider: ProviderId, message: string, options: { status?: number; aborted?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "ProviderError";
    this.provider = provider;
    this.status = options.status;
    this.aborted = options.aborted ?? false;
  }
}
