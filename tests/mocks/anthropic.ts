import { randomBytes } from "node:crypto";
import { http, HttpResponse } from "msw";
import {
  type Answer,
  type ChatContext,
  contentText,
  createMockState,
  eventStream,
  type ProviderMock,
  resolveAnswer,
  SSE_HEADERS,
  untilAborted,
  type Usage,
} from "./scenario";

/**
 * Anthropic Messages API (POST https://api.anthropic.com/v1/messages) and
 * the models list (GET /v1/models) as an msw stand-in. A structured request
 * is one that forces a tool (`tool_choice: {type:"tool", name}` with that tool in `tools`): it is
 * answered with a `tool_use` block whose `input` is the value (streamed as
 * `input_json_delta`). `output_config.format.type === "json_schema"` is
 * answered with the JSON as text.
 */

export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
const rid = (prefix: string) => `${prefix}${randomBytes(12).toString("base64url")}`;

type Mode = { kind: "text" } | { kind: "tool"; name: string } | { kind: "json_text" };

function anthropicContext(body: any): ChatContext & { mode: Mode } {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const lastUser = [...messages].reverse().find((m) => m?.role === "user");
  const promptChars = contentText(body?.system).length + messages.reduce((n, m) => n + contentText(m?.content).length, 0);
  const choice = body?.tool_choice;
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
  const forced = choice?.type === "tool" ? tools.find((t) => t?.name === choice.name) : choice?.type === "any" && tools.length === 1 ? tools[0] : undefined;
  const base = { lastUser: contentText(lastUser?.content), promptChars };
  if (forced) return { ...base, schema: forced.input_schema ?? { type: "object" }, mode: { kind: "tool", name: String(forced.name) } };
  const format = body?.output_config?.format;
  if (format?.type === "json_schema") return { ...base, schema: format.schema ?? { type: "object" }, mode: { kind: "json_text" } };
  return { ...base, schema: null, mode: { kind: "text" } };
}

function usage(u: Usage, outputTokens = u.output) {
  return { input_tokens: u.input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: outputTokens, service_tier: "standard" };
}

/** Whether the answer goes out as a tool_use block (parsable JSON for a forced tool). */
const asTool = (answer: Answer, mode: Mode): mode is Extract<Mode, { kind: "tool" }> => mode.kind === "tool" && answer.type === "json" && answer.json.valid;

const stopReason = (answer: Answer, mode: Mode) => (asTool(answer, mode) ? "tool_use" : answer.type === "text" && answer.truncated ? "max_tokens" : "end_turn");

const ERRORS: Record<number, { type: string; message: string }> = {
  400: { type: "invalid_request_error", message: "Invalid request." },
  401: { type: "authentication_error", message: "invalid x-api-key" },
  402: { type: "billing_error", message: "Your credit balance is too low to access the Anthropic API." },
  403: { type: "permission_error", message: "Your API key does not have permission to use the specified resource." },
  404: { type: "not_found_error", message: "The requested resource could not be found." },
  413: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." },
  429: { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit. Please try again later." },
  500: { type: "api_error", message: "Internal server error" },
  504: { type: "timeout_error", message: "Request timed out" },
  529: { type: "overloaded_error", message: "Overloaded" },
};

/** `{type:"error", error:{type,message}, request_id}` with the `request-id` header; 429 adds retry-after and anthropic-ratelimit-* headers. */
export function anthropicError(status: number, message?: string, retryAfterSeconds?: number) {
  const known = ERRORS[status] ?? (status >= 500 ? ERRORS[500]! : ERRORS[400]!);
  const requestId = rid("req_");
  const headers: Record<string, string> = { "content-type": "application/json", "request-id": requestId };
  if (status === 429) {
    const after = retryAfterSeconds ?? 1;
    const reset = new Date(Date.now() + after * 1000).toISOString().replace(/\.\d+Z$/, "Z");
    Object.assign(headers, {
      "retry-after": String(after),
      "anthropic-ratelimit-requests-limit": "50",
      "anthropic-ratelimit-requests-remaining": "0",
      "anthropic-ratelimit-requests-reset": reset,
    });
  } else if (retryAfterSeconds !== undefined) headers["retry-after"] = String(retryAfterSeconds);
  return { body: { type: "error", error: { type: known.type, message: message ?? known.message }, request_id: requestId }, headers };
}

const sse = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

function streamEvents(body: any, answer: Exclude<Answer, { type: "error" } | { type: "hang" }>, mode: Mode) {
  const tool = asTool(answer, mode);
  const message = {
    id: rid("msg_"),
    type: "message",
    role: "assistant",
    model: String(body?.model),
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: usage(answer.usage, 1),
  };
  const block = tool ? { type: "tool_use", id: rid("toolu_"), name: mode.name, input: {} } : { type: "text", text: "" };
  const delta = (piece: string) => (tool ? { type: "input_json_delta", partial_json: piece } : { type: "text_delta", text: piece });
  const events = [
    sse("message_start", { message }),
    sse("content_block_start", { index: 0, content_block: block }),
    sse("ping", {}),
    ...(tool ? [sse("content_block_delta", { index: 0, delta: delta("") })] : []),
    ...answer.chunks.map((piece) => sse("content_block_delta", { index: 0, delta: delta(piece) })),
  ];
  if (answer.type === "fail") {
    events.push(sse("error", { error: { type: "overloaded_error", message: "Overloaded" } }));
    return events;
  }
  events.push(
    sse("content_block_stop", { index: 0 }),
    sse("message_delta", { delta: { stop_reason: stopReason(answer, mode), stop_sequence: null }, usage: { output_tokens: answer.usage.output } }),
    sse("message_stop", {}),
  );
  return events;
}

function errorResponse(status: number, message?: string, retryAfterSeconds?: number) {
  const { body, headers } = anthropicError(status, message, retryAfterSeconds);
  return HttpResponse.json(body, { status, headers });
}

/** The models GET /v1/models lists, newest first, as the API pages them. */
const MODELS = [
  { id: "claude-sonnet-5-5-20261001", display_name: "Claude Sonnet 5.5", created_at: "2026-10-01T00:00:00Z" },
  { id: "claude-haiku-4-5-20251001", display_name: "Claude Haiku 4.5", created_at: "2025-10-01T00:00:00Z" },
].map((m) => ({ type: "model", ...m }));

/**
 * The 401 Anthropic answers when the key is missing or unknown; null when it is accepted.
 * The API takes the key as x-api-key; @anthropic-ai/sdk 1.x sends it as Authorization: Bearer.
 */
function refusedKey(headers: Record<string, string>, invalidKeys: Set<string>) {
  const key = headers["x-api-key"] ?? headers.authorization?.replace(/^Bearer\s+/i, "") ?? "";
  if (!key) return errorResponse(401, "x-api-key header is required");
  if (invalidKeys.has(key)) return errorResponse(401, "invalid x-api-key");
  return null;
}

export function createAnthropicMock(options: { baseUrl?: string } = {}): ProviderMock {
  const base = (options.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, "");
  const state = createMockState("anthropic");
  return {
    requests: state.requests,
    queue: state.queue,
    reset: state.reset,
    invalidKeys: state.invalidKeys,
    handlers: [
      // GET /v1/models: what a connection test calls (free). One page; `limit` (default 20) cuts it.
      http.get(`${base}/v1/models`, ({ request }) => {
        const { rec, finish } = state.record(request, null, false, "probe");
        finish();
        const refused = refusedKey(rec.headers, state.invalidKeys);
        if (refused) return refused;
        const limit = Number(new URL(request.url).searchParams.get("limit")) || 20;
        const data = MODELS.slice(0, limit);
        return HttpResponse.json(
          { data, has_more: data.length < MODELS.length, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null },
          { headers: { "request-id": rid("req_") } },
        );
      }),
      http.post(`${base}/v1/messages`, async ({ request }) => {
        const body: any = await request.json().catch(() => ({}));
        const stream = body?.stream === true;
        const { rec, finish } = state.record(request, body, stream, "chat");
        const refused = refusedKey(rec.headers, state.invalidKeys);
        if (refused) {
          finish();
          return refused;
        }
        const { mode, ...ctx } = anthropicContext(body);
        const answer = resolveAnswer(state.nextChat(), ctx);
        if (answer.type === "hang") {
          await untilAborted(request.signal);
          return HttpResponse.error();
        }
        if (answer.type === "error") {
          finish();
          return errorResponse(answer.status, answer.message, answer.retryAfterSeconds);
        }
        const requestId = rid("req_");
        if (stream) {
          return new HttpResponse(eventStream(streamEvents(body, answer, mode), request.signal, { onDone: finish }), {
            headers: { ...SSE_HEADERS, "request-id": requestId },
          });
        }
        finish();
        if (answer.type === "fail") return errorResponse(529);
        const text = answer.chunks.join("");
        const content = asTool(answer, mode) ? [{ type: "tool_use", id: rid("toolu_"), name: mode.name, input: answer.json!.value }] : [{ type: "text", text }];
        return HttpResponse.json(
          {
            id: rid("msg_"),
            type: "message",
            role: "assistant",
            model: String(body?.model),
            content,
            stop_reason: stopReason(answer, mode),
            stop_sequence: null,
            usage: usage(answer.usage),
          },
          { headers: { "request-id": requestId } },
        );
      }),
    ],
  };
}
