import { randomBytes } from "node:crypto";
import { STATUS_CODES } from "node:http";
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
  tokens,
  untilAborted,
  type Usage,
} from "./scenario";

/**
 * Gemini API (https://generativelanguage.googleapis.com/v1beta/models/{model}:…)
 * as an msw stand-in: `:generateContent`, `:streamGenerateContent?alt=sse`
 * (without alt=sse: one JSON array), `:embedContent`, `:batchEmbedContents`,
 * `:countTokens`.
 * A request is structured when `generationConfig.responseMimeType` is
 * "application/json"; the JSON comes from `responseSchema` (OpenAPI subset)
 * or `responseJsonSchema`.
 */

export const GOOGLE_BASE_URL = "https://generativelanguage.googleapis.com";

function googleContext(body: any): ChatContext {
  const contents: any[] = Array.isArray(body?.contents) ? body.contents : [];
  const lastUser = [...contents].reverse().find((c) => (c?.role ?? "user") === "user");
  const config = body?.generationConfig ?? {};
  return {
    lastUser: contentText(lastUser),
    promptChars: contentText(body?.systemInstruction).length + contents.reduce((n, c) => n + contentText(c).length, 0),
    schema: config.responseMimeType === "application/json" ? (config.responseSchema ?? config.responseJsonSchema ?? { type: "object" }) : null,
  };
}

function usageMetadata(u: Usage, final = true) {
  return {
    promptTokenCount: u.input,
    ...(final ? { candidatesTokenCount: u.output } : {}),
    totalTokenCount: u.input + (final ? u.output : 0),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: u.input }],
  };
}

function candidate(text: string, finishReason?: string) {
  return { content: { parts: [{ text }], role: "model" }, ...(finishReason ? { finishReason } : {}), index: 0 };
}

const STATUS: Record<number, { status: string; message: string }> = {
  400: { status: "INVALID_ARGUMENT", message: "Request contains an invalid argument." },
  401: { status: "UNAUTHENTICATED", message: "Request had invalid authentication credentials." },
  403: { status: "PERMISSION_DENIED", message: "The caller does not have permission" },
  404: { status: "NOT_FOUND", message: "models/unknown is not found for API version v1beta." },
  429: { status: "RESOURCE_EXHAUSTED", message: "Resource has been exhausted (e.g. check quota)." },
  500: {
    status: "INTERNAL",
    message: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
  },
  503: { status: "UNAVAILABLE", message: "The model is overloaded. Please try again later." },
  504: { status: "DEADLINE_EXCEEDED", message: "Deadline expired before operation could complete." },
};

/** `{error:{code,message,status,details?}}`; a 429 with retryAfterSeconds carries a google.rpc.RetryInfo detail. */
export function googleError(status: number, message?: string, retryAfterSeconds?: number) {
  const known = STATUS[status] ?? (status >= 500 ? STATUS[500]! : STATUS[400]!);
  const details = retryAfterSeconds !== undefined ? [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfterSeconds}s` }] : undefined;
  return { error: { code: status, message: message ?? known.message, status: known.status, ...(details ? { details } : {}) } };
}

const NO_KEY =
  "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.";

function errorResponse(status: number, message?: string, retryAfterSeconds?: number) {
  return HttpResponse.json(googleError(status, message, retryAfterSeconds), {
    status,
    statusText: STATUS_CODES[status] ?? "Error",
    headers: { "content-type": "application/json; charset=UTF-8" },
  });
}

const KEY_INVALID = "API key not valid. Please pass a valid API key.";

/** What Gemini answers an unknown key with: 400 INVALID_ARGUMENT carrying the ErrorInfo reason API_KEY_INVALID (not a 401). */
function invalidKeyResponse() {
  const body = {
    error: {
      code: 400,
      message: KEY_INVALID,
      status: "INVALID_ARGUMENT",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "API_KEY_INVALID",
          domain: "googleapis.com",
          metadata: { service: "generativelanguage.googleapis.com" },
        },
        { "@type": "type.googleapis.com/google.rpc.LocalizedMessage", locale: "en-US", message: KEY_INVALID },
      ],
    },
  };
  return HttpResponse.json(body, { status: 400, statusText: "Bad Request", headers: { "content-type": "application/json; charset=UTF-8" } });
}

/** The GenerateContentResponse chunks of a streamed answer; the last carries finishReason and the full usage. */
function streamChunks(answer: Exclude<Answer, { type: "error" } | { type: "hang" }>, model: string, responseId: string) {
  const pieces = answer.chunks.length > 0 ? answer.chunks : [""];
  const finishReason = answer.type === "text" && answer.truncated ? "MAX_TOKENS" : "STOP";
  return pieces.map((piece, i) => {
    const last = i === pieces.length - 1 && answer.type !== "fail";
    return {
      candidates: [candidate(piece, last ? finishReason : undefined)],
      usageMetadata: usageMetadata(answer.usage, last),
      modelVersion: model,
      responseId,
    };
  });
}

export function createGoogleMock(options: { baseUrl?: string } = {}): ProviderMock {
  const base = (options.baseUrl ?? GOOGLE_BASE_URL).replace(/\/+$/, "");
  const escaped = base.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const route = new RegExp(
    `^${escaped}/(v1beta|v1|v1alpha)/(?:models|tunedModels)/([^/:]+):(generateContent|streamGenerateContent|embedContent|batchEmbedContents|countTokens)$`,
  );
  const state = createMockState("google");
  const mock: ProviderMock = {
    requests: state.requests,
    queue: state.queue,
    reset: state.reset,
    invalidKeys: state.invalidKeys,
    embeddingDims: 64,
    handlers: [
      http.post(route, async ({ request }) => {
        const url = new URL(request.url);
        const [, , model = "", task = ""] = url.pathname.match(/\/(v1beta|v1|v1alpha)\/(?:models|tunedModels)\/([^/:]+):(\w+)$/) ?? [];
        const body: any = await request.json().catch(() => ({}));
        const key = request.headers.get("x-goog-api-key") ?? url.searchParams.get("key") ?? "";
        const noKey = !key;
        const dims = () => Number(body?.outputDimensionality) || mock.embeddingDims || 64;
        if (key && state.invalidKeys.has(key)) {
          state.record(request, body, false, task === "countTokens" ? "probe" : task.includes("mbed") ? "embed" : "chat").finish();
          return invalidKeyResponse();
        }

        // countTokens: what a connection test calls (free). Counts the request's text as the other answers do.
        if (task === "countTokens") {
          state.record(request, body, false, "probe").finish();
          if (noKey) return errorResponse(403, NO_KEY);
          const counted = body?.generateContentRequest ?? body;
          const totalTokens = tokens(contentText(counted?.contents ?? []).length);
          return HttpResponse.json({ totalTokens, promptTokensDetails: [{ modality: "TEXT", tokenCount: totalTokens }] });
        }

        if (task === "embedContent" || task === "batchEmbedContents") {
          state.record(request, body, false, "embed").finish();
          if (noKey) return errorResponse(403, NO_KEY);
          const error = state.nextEmbed();
          if (error) return errorResponse(error.status, error.message, error.retryAfterSeconds);
          if (task === "embedContent") return HttpResponse.json({ embedding: { values: embedText(contentText(body?.content), dims()) } });
          const requests: any[] = Array.isArray(body?.requests) ? body.requests : [];
          return HttpResponse.json({
            embeddings: requests.map((r) => ({ values: embedText(contentText(r?.content), Number(r?.outputDimensionality) || dims()) })),
          });
        }

        const streaming = task === "streamGenerateContent";
        const sse = streaming && url.searchParams.get("alt") === "sse";
        const { finish } = state.record(request, body, streaming, "chat");
        if (noKey) {
          finish();
          return errorResponse(403, NO_KEY);
        }
        const answer = resolveAnswer(state.nextChat(), googleContext(body));
        if (answer.type === "hang") {
          await untilAborted(request.signal);
          return HttpResponse.error();
        }
        if (answer.type === "error") {
          finish();
          return errorResponse(answer.status, answer.message, answer.retryAfterSeconds);
        }
        const responseId = randomBytes(9).toString("base64url");
        if (sse) {
          const events = streamChunks(answer, model, responseId).map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`);
          return new HttpResponse(eventStream(events, request.signal, { fail: answer.type === "fail", onDone: finish }), {
            headers: { "content-type": "text/event-stream", "x-content-type-options": "nosniff" },
          });
        }
        finish();
        if (answer.type === "fail") return HttpResponse.error();
        if (streaming) return HttpResponse.json(streamChunks(answer, model, responseId));
        const finishReason = answer.type === "text" && answer.truncated ? "MAX_TOKENS" : "STOP";
        return HttpResponse.json({
          candidates: [candidate(answer.chunks.join(""), finishReason)],
          usageMetadata: usageMetadata(answer.usage),
          modelVersion: model,
          responseId,
        });
      }),
    ],
  };
  return mock;
}
