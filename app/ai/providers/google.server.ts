import type { Content, GenerateContentRequest, GenerateContentResponse, GoogleGenerativeAI, ResponseSchema, SingleRequestOptions } from "@google/generative-ai";
import {
  type EmbeddingResult,
  type ModelChunk,
  type ModelRequest,
  type ModelResult,
  type ProbeResult,
  type ProviderClient,
  type ProviderCredentials,
  ProviderError,
} from "../types";
import { BoundedCall, bounded, within } from "./bounds.server";
import { toProviderError } from "./errors";
import { lazySdk } from "./lazy";

/**
 * provider_c through the official `@google/generative-ai` SDK (Gemini).
 * Structured answers use `responseMimeType: application/json` with a
 * `responseSchema` (Gemini's OpenAPI subset, converted from JSON Schema).
 */

const KEPT = new Set(["type", "description", "enum", "items", "properties", "required", "minItems", "maxItems", "nullable", "format"]);

/** JSON Schema → the subset Gemini's responseSchema accepts (unknown keywords are refused by the API). */
export function toGeminiSchema(schema: Record<string, unknown>): ResponseSchema {
  const convert = (node: unknown): unknown => {
    if (!node || typeof node !== "object") return node;
    const source = node as Record<string, unknown>;
    const anyOf = (source.anyOf ?? source.oneOf) as Record<string, unknown>[] | undefined;
    if (anyOf?.length) {
      const nonNull = anyOf.filter((s) => s.type !== "null");
      return { ...(convert(nonNull[0] ?? {}) as object), ...(nonNull.length < anyOf.length ? { nullable: true } : {}) };
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(source)) {
      if (!KEPT.has(key)) continue;
      if (key === "properties") {
        out.properties = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, convert(v)]));
      } else if (key === "items") out.items = convert(value);
      else if (key === "type" && Array.isArray(value)) {
        out.type = value.find((t) => t !== "null");
        if (value.includes("null")) out.nullable = true;
      } else out[key] = value;
    }
    if (!out.type) out.type = out.properties ? "object" : "string";
    return out;
  };
  return convert(schema) as ResponseSchema;
}

function usageOf(response: GenerateContentResponse | undefined) {
  return {
    inputTokens: response?.usageMetadata?.promptTokenCount ?? 0,
    outputTokens: response?.usageMetadata?.candidatesTokenCount ?? 0,
  };
}

function textOf(response: GenerateContentResponse) {
  return (response.candidates?.[0]?.content?.parts ?? []).map((p) => p.text ?? "").join("");
}

const createSdk = async (creds: ProviderCredentials): Promise<GoogleGenerativeAI> =>
  new (await import("@google/generative-ai")).GoogleGenerativeAI(creds.apiKey);
const baseUrlOf = (creds: ProviderCredentials) => (creds.baseUrl ? { baseUrl: creds.baseUrl.replace(/\/+$/, "") } : {});
const requestOptionsOf = (creds: ProviderCredentials) => ({ timeout: creds.timeoutMs, ...baseUrlOf(creds) });

/**
 * Connection test: counts the tokens of one word with the configured model
 * (`:countTokens` is free), which checks the key and the model at once. The
 * SDK retries nothing, so this is one request.
 */
export async function googleProbe(creds: ProviderCredentials): Promise<ProbeResult> {
  try {
    const model = (await createSdk(creds)).getGenerativeModel({ model: creds.model }, requestOptionsOf(creds));
    await model.countTokens("ping");
    return { modelCount: null, modelListed: true };
  } catch (error) {
    throw toProviderError("provider_c", error, creds.apiKey);
  }
}

export function googleClient(creds: ProviderCredentials): ProviderClient {
  const sdk = lazySdk(() => createSdk(creds));
  // No SDK timeout here: it would cut a whole stream at AI_TIMEOUT_MS. `within` times each attempt instead.
  const requestOptions = baseUrlOf(creds);

  const model = async (request: ModelRequest) =>
    (await sdk()).getGenerativeModel(
      {
        model: creds.model,
        systemInstruction: request.system,
        generationConfig: {
          maxOutputTokens: request.maxTokens,
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          ...(request.json ? { responseMimeType: "application/json", responseSchema: toGeminiSchema(request.json.schema) } : {}),
        },
      },
      requestOptions,
    );
  const contents = (request: ModelRequest): GenerateContentRequest => ({
    contents: request.messages.map((m): Content => ({ role: m.role === "assistant" ? "model" : "user", parts: [{ text: m.content }] })),
  });
  const late = () => new ProviderError("provider_c", "Google Gemini did not answer in time");
  /**
   * The SDK retries nothing itself; calls that fail before any output are
   * retried here. Each attempt gets AI_TIMEOUT_MS to settle (a stream: to
   * its headers).
   */
  async function withRetries<T>(call: (options: SingleRequestOptions) => Promise<T>, signal: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await within(signal, creds.timeoutMs, (s) => call({ signal: s }), late);
      } catch (error) {
        const status = (error as { status?: number }).status;
        const retryable = !signal?.aborted && (status === undefined || status === 429 || status >= 500);
        if (!retryable || attempt >= creds.maxRetries) throw error;
        await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
      }
    }
  }

  return {
    provider: "provider_c",
    model: creds.model,
    async *stream(request): AsyncIterable<ModelChunk> {
      let usage = { inputTokens: 0, outputTokens: 0 };
      let truncated = false;
      const call = new BoundedCall("provider_c", creds.apiKey, request.signal);
      try {
        const generative = await model(request);
        const result = await call.race(withRetries((options) => generative.generateContentStream(contents(request), options), call.signal));
        // The aggregated response rejects too when the stream fails; the loop below reports that.
        result.response.catch(() => {});
        for await (const chunk of call.chunks(result.stream)) {
          const text = textOf(chunk);
          if (text) yield { type: "text", text };
          if (chunk.candidates?.[0]?.finishReason === "MAX_TOKENS") truncated = true;
          if (chunk.usageMetadata) usage = usageOf(chunk);
        }
      } catch (error) {
        throw call.fail(error);
      } finally {
        call.end();
      }
      yield { type: "end", usage, truncated };
    },
    async complete(request): Promise<ModelResult> {
      return bounded("provider_c", creds.apiKey, request.signal, async (call) => {
        const generative = await model(request);
        const { response } = await call.answer(withRetries((options) => generative.generateContent(contents(request), options), call.signal));
        return { text: textOf(response), truncated: response.candidates?.[0]?.finishReason === "MAX_TOKENS", usage: usageOf(response) };
      });
    },
    async embed(texts, signal): Promise<EmbeddingResult> {
      const name = creds.embeddingModel ?? "text-embedding-004";
      return bounded("provider_c", creds.apiKey, signal, async (call) => {
        const embedder = (await sdk()).getGenerativeModel({ model: name }, requestOptions);
        const requests = texts.map((text) => ({ content: { role: "user", parts: [{ text }] } }));
        const answer = await call.answer(withRetries((options) => embedder.batchEmbedContents({ requests }, options), call.signal));
        const chars = texts.reduce((n, t) => n + t.length, 0);
        return { vectors: answer.embeddings.map((e) => e.values), model: name, usage: { inputTokens: Math.ceil(chars / 4), outputTokens: 0 } };
      });
    },
  };
}
