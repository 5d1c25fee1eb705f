import { randomBytes } from "node:crypto";
import { http, HttpResponse } from "msw";
import {
  type Answer,
  type ChatContext,
  contentText,
  createMockState,
  embedText,
  eventStream,
  type ProviderMock,
  resolveAnswer,
  SSE_HEADERS,
  tokens,
  untilAborted,
  type Usage,
} from "./scenario";

/**
 * OpenAI Chat Completions, Embeddings and the models list
 * (https://api.openai.com/v1) as an msw stand-in, plus the wire-format builders the loopback server
 * (openai-server.ts) reuses.
 */

export const OPENAI_BASE_URL = "https://api.openai.com/v1";
const rid = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;

// ------------------------------------------------------------ wire format

export const sseData = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
export const SSE_DONE = "data: [DONE]\n\n";

/** Prompt facts of a chat request: last user message, prompt size, JSON Schema when `response_format` asks for one. */
export function openaiChatContext(body: any): ChatContext {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const lastUser = [...messages].reverse().find((m) => m?.role === "user");
  const format = body?.response_format;
  const schema =
    format?.type === "json_schema" ? (format.json_schema?.schema ?? { type: "object" }) : format?.type === "json_object" ? { type: "object" } : null;
  return {
    lastUser: contentText(lastUser?.content),
    promptChars: messages.reduce((n, m) => n + contentText(m?.content).length, 0),
    schema,
  };
}

export function openaiUsage(u: Usage) {
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

export function openaiCompletion(o: { model: string; content: string; finishReason: "stop" | "length"; usage: Usage }) {
  return {
    id: rid("chatcmpl-"),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: o.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: o.content, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: o.finishReason,
      },
    ],
    usage: openaiUsage(o.usage),
    service_tier: "default",
    system_fingerprint: "fp_mock",
  };
}

/**
 * The SSE events of one streamed completion: a role chunk, content chunks,
 * the finish chunk, the usage chunk (`choices: []`) when the request set
 * `stream_options.include_usage` (then every chunk carries `usage: null`), and `[DONE]`.
 */
export function openaiStream(body: any) {
  const id = rid("chatcmpl-");
  const created = Math.floor(Date.now() / 1000);
  const model = String(body?.model ?? "gpt-mock");
  const includeUsage = body?.stream_options?.include_usage === true;
  const base = { id, object: "chat.completion.chunk", created, model, service_tier: "default", system_fingerprint: "fp_mock" };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    sseData({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...(includeUsage ? { usage: null } : {}) });
  return {
    start: () => chunk({ role: "assistant", content: "", refusal: null }),
    content: (text: string) => chunk({ content: text }),
    end: (finishReason: "stop" | "length", usage: Usage) => [
      chunk({}, finishReason),
      ...(includeUsage ? [sseData({ ...base, choices: [], usage: openaiUsage(usage) })] : []),
      SSE_DONE,
    ],
  };
}

const ERRORS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: "invalid_request_error", code: null, message: "Invalid request." },
  401: {
    type: "invalid_request_error",
    code: "invalid_api_key",
    message: "Incorrect API key provided: sk-mock***key. You can find your API key at https://platform.openai.com/account/api-keys.",
  },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory", message: "Country, region, or territory not supported" },
  404: { type: "invalid_request_error", code: "model_not_found", message: "The model does not exist or you do not have access to it." },
  429: { type: "requests", code: "rate_limit_exceeded", message: "Rate limit reached for requests. Please try again later." },
  500: { type: "server_error", code: null, message: "The server had an error while processing your request. Sorry about that!" },
  503: { type: "server_error", code: null, message: "The engine is currently overloaded, please try again later." },
};

/** The error body (`{error:{message,type,param,code}}`) and headers OpenAI answers a failed request with. */
export function openaiError(status: number, message?: string, retryAfterSeconds?: number) {
  const known = ERRORS[status] ?? (status >= 500 ? ERRORS[500]! : ERRORS[400]!);
  const headers: Record<string, string> = { "content-type": "application/json", "x-request-id": rid("req_") };
  if (status === 429) {
    const after = String(retryAfterSeconds ?? 1);
    Object.assign(headers, {
      "retry-after": after,
      "x-ratelimit-limit-requests": "500",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": `${after}s`,
      "x-ratelimit-limit-tokens": "200000",
      "x-ratelimit-remaining-tokens": "0",
      "x-ratelimit-reset-tokens": `${after}s`,
    });
  } else if (retryAfterSeconds !== undefined) headers["retry-after"] = String(retryAfterSeconds);
  return { body: { error: { message: message ?? known.message, type: known.type, param: null, code: known.code } }, headers };
}

/** Embeddings response for `input` (string or string[]); base64 little-endian float32 when `encoding_format: "base64"` (the SDK's default). */
export function openaiEmbeddings(body: any, dims: number) {
  const inputs: string[] = (Array.isArray(body?.input) ? body.input : [body?.input]).map((x: unknown) => (typeof x === "string" ? x : JSON.stringify(x)));
  const size = Number(body?.dimensions) || dims;
  const data = inputs.map((text, index) => {
    const vector = embedText(text, size);
    const embedding = body?.encoding_format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
    return { object: "embedding", index, embedding };
  });
  const promptTokens = inputs.reduce((n, t) => n + tokens(t.length), 0);
  return { object: "list", data, model: String(body?.model ?? "text-embedding-3-small"), usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } };
}

const OK_HEADERS = () => ({
  "x-request-id": rid("req_"),
  "openai-version": "2020-10-01",
  "openai-processing-ms": "12",
  "x-ratelimit-limit-requests": "500",
  "x-ratelimit-remaining-requests": "499",
  "x-ratelimit-reset-requests": "120ms",
});

// ------------------------------------------------------------ msw handlers

const NO_KEY =
  "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";

function errorResponse(a: Extract<Answer, { type: "error" }>) {
  const { body, headers } = openaiError(a.status, a.message, a.retryAfterSeconds);
  return HttpResponse.json(body, { status: a.status, headers });
}

/** OpenAI echoes a refused key masked: its first 8 and last 4 characters. */
export const incorrectKeyMessage = (key: string) =>
  `Incorrect API key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(4, key.length - 12))}${key.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`;

/** The 401 OpenAI answers when the Bearer key is missing or unknown; null when the key is accepted. */
function refusedKey(headers: Record<string, string>, invalidKeys: Set<string>) {
  const key = headers.authorization?.replace(/^Bearer\s+/i, "") ?? "";
  if (!key) return errorResponse({ type: "error", status: 401, message: NO_KEY });
  if (invalidKeys.has(key)) return errorResponse({ type: "error", status: 401, message: incorrectKeyMessage(key) });
  return null;
}

export function createOpenAIMock(options: { baseUrl?: string } = {}): ProviderMock {
  const base = (options.baseUrl ?? OPENAI_BASE_URL).replace(/\/+$/, "");
  const state = createMockState("openai");
  const mock: ProviderMock = {
    requests: state.requests,
    queue: state.queue,
    reset: state.reset,
    invalidKeys: state.invalidKeys,
    embeddingDims: 64,
    handlers: [
      http.post(`${base}/chat/completions`, async ({ request }) => {
        const body: any = await request.json().catch(() => ({}));
        const stream = body?.stream === true;
        const { rec, finish } = state.record(request, body, stream, "chat");
        const refused = refusedKey(rec.headers, state.invalidKeys);
        if (refused) {
          finish();
          return refused;
        }
        const answer = resolveAnswer(state.nextChat(), openaiChatContext(body));
        if (answer.type === "hang") {
          await untilAborted(request.signal);
          return HttpResponse.error();
        }
        if (answer.type === "error") {
          finish();
          return errorResponse(answer);
        }
        if (!stream) {
          finish();
          if (answer.type === "fail") return HttpResponse.error();
          const content = answer.chunks.join("");
          const finishReason = answer.truncated ? "length" : "stop";
          return HttpResponse.json(openaiCompletion({ model: String(body.model), content, finishReason, usage: answer.usage }), { headers: OK_HEADERS() });
        }
        const s = openaiStream(body);
        const events = [s.start(), ...answer.chunks.map(s.content)];
        if (answer.type !== "fail") events.push(...s.end(answer.truncated ? "length" : "stop", answer.usage));
        return new HttpResponse(eventStream(events, request.signal, { fail: answer.type === "fail", onDone: finish }), {
          headers: { ...SSE_HEADERS, ...OK_HEADERS() },
        });
      }),
      http.post(`${base}/embeddings`, async ({ request }) => {
        const body: any = await request.json().catch(() => ({}));
        const { rec, finish } = state.record(request, body, false, "embed");
        finish();
        const refused = refusedKey(rec.headers, state.invalidKeys);
        if (refused) return refused;
        const error = state.nextEmbed();
        if (error) return errorResponse({ type: "error", status: error.status, message: error.message, retryAfterSeconds: error.retryAfterSeconds });
        return HttpResponse.json(openaiEmbeddings(body, mock.embeddingDims ?? 64), { headers: OK_HEADERS() });
      }),
      // GET /models: what a connection test calls (free; Ollama and llama.cpp serve it too).
      http.get(`${base}/models`, ({ request }) => {
        const { rec, finish } = state.record(request, null, false, "probe");
        finish();
        const refused = refusedKey(rec.headers, state.invalidKeys);
        if (refused) return refused;
        return HttpResponse.json(
          {
            object: "list",
            data: [
              { id: "gpt-4o-mini", object: "model", created: 1721172741, owned_by: "system" },
              { id: "text-embedding-3-small", object: "model", created: 1705948997, owned_by: "system" },
            ],
          },
          { headers: OK_HEADERS() },
        );
      }),
    ],
  };
  return mock;
}
