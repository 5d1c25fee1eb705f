import type { Content, GenerateContentRequest, GenerateContentResponse, GoogleGenerativeAI, ResponseSchema } from "@google/generative-ai";
import type { EmbeddingResult, ModelChunk, ModelRequest, ModelResult, ProbeResult, ProviderClient, ProviderCredentials } from "../types";
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
const requestOptionsOf = (creds: ProviderCredentials) => ({
  timeout: creds.timeoutMs,
  ...(creds.baseUrl ? { baseUrl: creds.baseUrl.replace(/\/+$/, "") } : {}),
});

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
  const requestOptions = requestOptionsOf(creds);

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
  const fail = (error: unknown, signal?: AbortSignal) => toProviderError("provider_c", error, creds.apiKey, signal);
  /** The SDK retries nothing itself; calls that fail before any output are retried here. */
  async function withRetries<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
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
      try {
        const result = await withRetries(
          async () => (await model(request)).generateContentStream(contents(request), { signal: request.signal }),
          request.signal,
        );
        // The aggregated response rejects too when the stream fails; the loop below reports that.
        result.response.catch(() => {});
        for await (const chunk of result.stream) {
          const text = textOf(chunk);
          if (text) yield { type: "text", text };
          if (chunk.candidates?.[0]?.finishReason === "MAX_TOKENS") truncated = true;
          if (chunk.usageMetadata) usage = usageOf(chunk);
        }
      } catch (error) {
        throw fail(error, request.signal);
      }
      yield { type: "end", usage, truncated };
    },
    async complete(request): Promise<ModelResult> {
      try {
        const { response } = await withRetries(
          async () => (await model(request)).generateContent(contents(request), { signal: request.signal }),
          request.signal,
        );
        return { text: textOf(response), truncated: response.candidates?.[0]?.finishReason === "MAX_TOKENS", usage: usageOf(response) };
      } catch (error) {
        throw fail(error, request.signal);
      }
    },
    async embed(texts, signal): Promise<EmbeddingResult> {
      const name = creds.embeddingModel ?? "text-embedding-004";
      try {
        const embedder = (await sdk()).getGenerativeModel({ model: name }, requestOptions);
        const answer = await withRetries(
          () => embedder.batchEmbedContents({ requests: texts.map((text) => ({ content: { role: "user", parts: [{ text }] } })) }, { signal }),
          signal,
        );
        const chars = texts.reduce((n, t) => n + t.length, 0);
        return { vectors: answer.embeddings.map((e) => e.values), model: name, usage: { inputTokens: Math.ceil(chars / 4), outputTokens: 0 } };
      } catch (error) {
        throw fail(error, signal);
      }
    },
  };
}
