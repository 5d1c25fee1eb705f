import type OpenAI from "openai";
import type { ChatCompletionCreateParamsBase } from "openai/resources/chat/completions";
import { lazySdk } from "./lazy";
import type { EmbeddingResult, ModelChunk, ModelRequest, ModelResult, ProbeResult, ProviderClient, ProviderCredentials } from "../types";
import { BoundedCall, bounded } from "./bounds.server";

const createSdk = async (creds: ProviderCredentials): Promise<OpenAI> =>
  new (await import("openai")).default({
    apiKey: creds.apiKey,
    baseURL: creds.baseUrl,
    timeout: creds.timeoutMs,
    maxRetries: creds.maxRetries,
  });

/**
 * Connection test: lists the models (GET /models), which costs nothing and
 * is what Ollama, llama.cpp and vLLM serve at /v1/models too. Ollama names a
 * pulled model `name:latest`, so that counts as the configured `name`.
 */
export async function openaiProbe(creds: ProviderCredentials): Promise<ProbeResult> {
  return bounded("provider_a", creds.apiKey, undefined, async (call) => {
    const pending = (await createSdk(creds)).models.list({ signal: call.signal });
    const ids = (await call.answer(pending, pending.asResponse())).data.map((m) => m.id);
    return { modelCount: ids.length, modelListed: ids.some((id) => id === creds.model || id === `${creds.model}:latest`) };
  });
}

/**
 * provider_a through the official `openai` SDK: OpenAI itself, or any
 * OpenAI-compatible server (Ollama, llama.cpp, vLLM) at OPENAI_BASE_URL.
 * Structured answers use `response_format: json_schema`.
 */
export function openaiClient(creds: ProviderCredentials): ProviderClient {
  const sdk = lazySdk(() => createSdk(creds));
  // OpenAI's own API wants max_completion_tokens; compatible local servers understand max_tokens.
  const limit = (n: number) => (creds.baseUrl ? { max_tokens: n } : { max_completion_tokens: n });

  const params = (request: ModelRequest): ChatCompletionCreateParamsBase => ({
    model: creds.model,
    messages: [{ role: "system", content: request.system }, ...request.messages],
    ...limit(request.maxTokens),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.json
      ? {
          response_format: {
            type: "json_schema",
            json_schema: { name: request.json.name, description: request.json.description, schema: request.json.schema, strict: false },
          },
        }
      : {}),
  });
  return {
    provider: "provider_a",
    model: creds.model,
    async *stream(request): AsyncIterable<ModelChunk> {
      let usage = { inputTokens: 0, outputTokens: 0 };
      let truncated = false;
      // The SDK's timeout ends at the headers; the idle and total bounds cover the stream itself.
      const call = new BoundedCall("provider_a", creds.apiKey, request.signal);
      try {
        const client = await sdk();
        const stream = await call.race(
          client.chat.completions.create({ ...params(request), stream: true, stream_options: { include_usage: true } }, { signal: call.signal }),
        );
        for await (const chunk of call.chunks(stream)) {
          const choice = chunk.choices[0];
          const text = choice?.delta?.content;
          if (text) yield { type: "text", text };
          if (choice?.finish_reason === "length") truncated = true;
          if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
        }
      } catch (error) {
        throw call.fail(error);
      } finally {
        call.end();
      }
      yield { type: "end", usage, truncated };
    },
    async complete(request): Promise<ModelResult> {
      return bounded("provider_a", creds.apiKey, request.signal, async (call) => {
        const pending = (await sdk()).chat.completions.create({ ...params(request), stream: false }, { signal: call.signal });
        const answer = await call.answer(pending, pending.asResponse());
        const choice = answer.choices[0];
        return {
          text: choice?.message?.content ?? "",
          truncated: choice?.finish_reason === "length",
          usage: { inputTokens: answer.usage?.prompt_tokens ?? 0, outputTokens: answer.usage?.completion_tokens ?? 0 },
        };
      });
    },
    async embed(texts, signal): Promise<EmbeddingResult> {
      const model = creds.embeddingModel ?? "text-embedding-3-small";
      return bounded("provider_a", creds.apiKey, signal, async (call) => {
        const pending = (await sdk()).embeddings.create({ model, input: texts }, { signal: call.signal });
        const answer = await call.answer(pending, pending.asResponse());
        const vectors = [...answer.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
        return { vectors, model, usage: { inputTokens: answer.usage?.prompt_tokens ?? 0, outputTokens: 0 } };
      });
    },
  };
}
