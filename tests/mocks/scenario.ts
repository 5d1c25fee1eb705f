import type { HttpHandler } from "msw";
import { type JSONSchema, sampleFromSchema } from "./json-from-schema";

/**
 * The provider-neutral script the AI stand-ins (openai.ts, anthropic.ts,
 * google.ts) follow, and the pieces they share: the answer queue, request
 * recording, default answers, token counts, deterministic embeddings and
 * SSE bodies written chunk by chunk.
 *
 * Queue semantics: each chat request (OpenAI /chat/completions, Anthropic
 * /v1/messages, Gemini :generateContent / :streamGenerateContent) consumes
 * the next queued scenario. With the queue empty a structured request gets a
 * schema-valid sample and a text request gets "Echo: <last user message>".
 * Embedding requests are always answered with deterministic vectors, except
 * that an embedding request consumes the head of the queue when (and only
 * when) it is an `http_error`, and answers with that error.
 */
export type Scenario =
  /** chunks default: the echo of the last user message. */
  | { kind: "text"; chunks?: string[]; truncated?: boolean; usage?: { input: number; output: number } }
  /** Structured answer (OpenAI: content JSON string; Anthropic: tool_use `input`; Gemini: JSON text). */
  | { kind: "json"; value: unknown }
  /** A structured request answered with this literal text (Anthropic: tool_use of JSON.parse(text), or a text block when unparseable). */
  | { kind: "raw_json_text"; text: string }
  /** The provider's own error body and headers (429 adds retry-after / rate-limit headers). */
  | { kind: "http_error"; status: number; message?: string; retryAfterSeconds?: number }
  /** Streams the chunks, then fails (OpenAI/Gemini: connection error; Anthropic: `event: error` overloaded_error). */
  | { kind: "fail_mid_stream"; chunks: string[] }
  /** Never answers; the request stays open until the client aborts it. */
  | { kind: "hang" };

export interface Recorded {
  provider: "openai" | "anthropic" | "google";
  url: string;
  method: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: any;
  stream: boolean;
  /** The client aborted the request before the answer was complete. */
  aborted: boolean;
  /** `probe`: a free call a connection test makes (list models, count tokens). */
  kind: "chat" | "embed" | "probe";
}

export interface ProviderMock {
  handlers: HttpHandler[];
  queue(...s: Scenario[]): void;
  requests: Recorded[];
  /**
   * Keys this provider does not know: every call with one is refused as the
   * real API refuses a revoked or mistyped key (OpenAI and Anthropic 401,
   * Gemini 400 API_KEY_INVALID). Emptied by reset().
   */
  invalidKeys: Set<string>;
  /** Empties the queue, the recorded requests (the same array, emptied) and invalidKeys. */
  reset(): void;
  embeddingDims?: number;
}

export interface Usage {
  input: number;
  output: number;
}

/** What a provider answers with, resolved from a scenario (or the default) for one chat request. */
export type Answer =
  | { type: "text"; chunks: string[]; truncated: boolean; usage: Usage; json?: undefined }
  /** Structured answer; `value` is undefined when `text` is not valid JSON. */
  | { type: "json"; chunks: string[]; truncated: false; usage: Usage; json: { text: string; value: unknown; valid: boolean } }
  | { type: "error"; status: number; message?: string; retryAfterSeconds?: number }
  | { type: "fail"; chunks: string[]; usage: Usage }
  | { type: "hang" };

export interface ChatContext {
  /** Text of the last user message. */
  lastUser: string;
  /** Total characters of the prompt (system + messages), for input token counts. */
  promptChars: number;
  /** The JSON Schema of a structured request, `null` when the request is plain text. */
  schema: JSONSchema | null;
}

export const tokens = (chars: number) => Math.ceil(chars / 4);

/** Splits text into about `n` pieces at word boundaries; the pieces join back to the text. */
export function splitText(text: string, n = 5): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
  if (words.length === 0) return [];
  const per = Math.ceil(words.length / n);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += per) out.push(words.slice(i, i + per).join(""));
  return out;
}

export function resolveAnswer(scenario: Scenario | undefined, ctx: ChatContext): Answer {
  const input = tokens(ctx.promptChars);
  const jsonAnswer = (text: string): Answer => {
    let value: unknown;
    let valid = true;
    try {
      value = JSON.parse(text);
    } catch {
      valid = false;
    }
    return { type: "json", chunks: splitText(text), truncated: false, usage: { input, output: tokens(text.length) }, json: { text, value, valid } };
  };
  const s: Scenario = scenario ?? (ctx.schema !== null ? { kind: "json", value: sampleFromSchema(ctx.schema) } : { kind: "text" });
  switch (s.kind) {
    case "text": {
      const chunks = s.chunks ?? splitText(`Echo: ${ctx.lastUser}`);
      const output = chunks.join("").length;
      return { type: "text", chunks, truncated: s.truncated ?? false, usage: s.usage ?? { input, output: tokens(output) } };
    }
    case "json":
      return jsonAnswer(JSON.stringify(s.value));
    case "raw_json_text":
      return jsonAnswer(s.text);
    case "http_error":
      return { type: "error", status: s.status, message: s.message, retryAfterSeconds: s.retryAfterSeconds };
    case "fail_mid_stream":
      return { type: "fail", chunks: s.chunks, usage: { input, output: tokens(s.chunks.join("").length) } };
    case "hang":
      return { type: "hang" };
  }
}

/** Plain text of message content in any provider's shape: a string, or parts/blocks with `text`. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(contentText).join("");
  if (content && typeof content === "object") {
    const c = content as Record<string, unknown>;
    if (typeof c.text === "string") return c.text;
    if (c.parts) return contentText(c.parts);
    if (c.content) return contentText(c.content);
  }
  return "";
}

/** The queue, the recorded requests and abort tracking one provider mock shares between its handlers. */
export function createMockState(provider: Recorded["provider"]) {
  const pending: Scenario[] = [];
  const requests: Recorded[] = [];
  const invalidKeys = new Set<string>();
  return {
    requests,
    invalidKeys,
    queue: (...s: Scenario[]) => void pending.push(...s),
    reset() {
      pending.length = 0;
      requests.length = 0;
      invalidKeys.clear();
    },
    nextChat: () => pending.shift(),
    /** The head of the queue if it is an http_error (embedding requests take nothing else). */
    nextEmbed: () => (pending[0]?.kind === "http_error" ? (pending.shift() as Extract<Scenario, { kind: "http_error" }>) : undefined),
    /**
     * Records a request. `aborted` turns true if the request's signal aborts
     * before `finish()` is called (for streams: before the body is complete).
     */
    record(request: Request, body: any, stream: boolean, kind: Recorded["kind"]) {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, key) => (headers[key.toLowerCase()] = value));
      const rec: Recorded = { provider, url: request.url, method: request.method, headers, body, stream, aborted: false, kind };
      requests.push(rec);
      const onAbort = () => (rec.aborted = true);
      if (request.signal.aborted) rec.aborted = true;
      else request.signal.addEventListener("abort", onAbort, { once: true });
      return { rec, finish: () => request.signal.removeEventListener("abort", onAbort) };
    },
  };
}

/** Resolves once the request is aborted: the `hang` scenario. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
}

const encoder = new TextEncoder();

/**
 * A body written event by event with a macrotask between them, so a client
 * sees separate chunks and can abort in between. A client abort errors the
 * body with an AbortError, as undici does. `fail` ends the body with
 * `TypeError: terminated`, what undici raises when the connection drops.
 */
export function eventStream(events: string[], signal: AbortSignal, opts: { fail?: boolean; onDone?: () => void } = {}) {
  let stopped = false;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const onAbort = () => {
        if (stopped) return;
        stopped = true;
        controller.error(new DOMException("This operation was aborted", "AbortError"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      for (const event of events) {
        await new Promise((r) => setImmediate(r));
        if (stopped) return;
        controller.enqueue(encoder.encode(event));
      }
      await new Promise((r) => setImmediate(r));
      signal.removeEventListener("abort", onAbort);
      if (stopped) return;
      stopped = true;
      opts.onDone?.();
      if (opts.fail) controller.error(Object.assign(new TypeError("terminated"), { cause: new Error("other side closed") }));
      else controller.close();
    },
    cancel() {
      stopped = true;
    },
  });
}

export const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" };

/**
 * A deterministic embedding: hashed bag of lower-cased words (plus word
 * bigrams at half weight) in `dims` dimensions, L2-normalised. Texts that
 * share words have a higher cosine similarity.
 */
export function embedText(text: string, dims = 64): number[] {
  const v = new Array<number>(dims).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const add = (term: string, weight: number) => {
    let h = 2166136261;
    for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 16777619);
    h >>>= 0;
    v[h % dims]! += h & 0x10000 ? weight : -weight;
  };
  words.forEach((w, i) => {
    add(w, 1);
    if (i > 0) add(`${words[i - 1]} ${w}`, 0.5);
  });
  const norm = Math.hypot(...v);
  if (norm === 0) {
    v[0] = 1;
    return v;
  }
  return v.map((x) => x / norm);
}
