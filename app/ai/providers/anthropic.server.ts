import type Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsBase } from "@anthropic-ai/sdk/resources/messages";
import type { ModelChunk, ModelRequest, ModelResult, ProbeResult, ProviderClient, ProviderCredentials } from "../types";
import { BoundedCall, bounded } from "./bounds.server";
import { lazySdk } from "./lazy";

const createSdk = async (creds: ProviderCredentials): Promise<Anthropic> =>
  new (await import("@anthropic-ai/sdk")).default({
    apiKey: creds.apiKey,
    baseURL: creds.baseUrl,
    timeout: creds.timeoutMs,
    maxRetries: creds.maxRetries,
  });

/**
 * Connection test: one page of GET /v1/models (free). Model ids carry a date
 * (`claude-…-20250929`), so the configured name counts as listed when an id
 * starts with it; an alias it cannot match leaves `modelListed` unknown.
 */
export async function anthropicProbe(creds: ProviderCredentials): Promise<ProbeResult> {
  return bounded("provider_b", creds.apiKey, undefined, async (call) => {
    const pending = (await createSdk(creds)).models.list({ limit: 100 }, { signal: call.signal });
    const ids = (await call.answer(pending, pending.asResponse())).data.map((m) => m.id);
    const listed = ids.some((id) => id === creds.model || id.startsWith(`${creds.model}-`));
    return { modelCount: ids.length, modelListed: listed ? true : null };
  });
}

/**
 * provider_b through the official `@anthropic-ai/sdk`. Structured answers
 * are a forced tool call (`tool_choice: {type: "tool"}`) whose input is the
 * JSON; its text is that input serialised.
 */
export function anthropicClient(creds: ProviderCredentials): ProviderClient {
  const sdk = lazySdk(() => createSdk(creds));

  const params = (request: ModelRequest): MessageCreateParamsBase => ({
    model: creds.model,
    system: request.system,
    messages: request.messages,
    max_tokens: request.maxTokens,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.json
      ? {
          tools: [
            {
              name: request.json.name,
              description: request.json.description ?? `Return the ${request.json.name}`,
              input_schema: { type: "object", ...request.json.schema } as Anthropic.Tool.InputSchema,
            },
          ],
          tool_choice: { type: "tool", name: request.json.name },
        }
      : {}),
  });
  return {
    provider: "provider_b",
    model: creds.model,
    async *stream(request): AsyncIterable<ModelChunk> {
      let inputTokens = 0;
      let outputTokens = 0;
      let truncated = false;
      // The SDK's timeout ends at the headers; the idle and total bounds cover the stream itself (a `ping` counts as life).
      const call = new BoundedCall("provider_b", creds.apiKey, request.signal);
      try {
        const client = await sdk();
        const stream = await call.race(client.messages.create({ ...params(request), stream: true }, { signal: call.signal }));
        for await (const event of call.chunks(stream)) {
          if (event.type === "message_start") inputTokens = event.message.usage.input_tokens;
          else if (event.type === "content_block_delta") {
            if (event.delta.type === "text_delta" && event.delta.text) yield { type: "text", text: event.delta.text };
            else if (event.delta.type === "input_json_delta" && event.delta.partial_json) yield { type: "text", text: event.delta.partial_json };
          } else if (event.type === "message_delta") {
            outputTokens = event.usage.output_tokens;
            if (event.delta.stop_reason === "max_tokens") truncated = true;
          }
        }
      } catch (error) {
        throw call.fail(error);
      } finally {
        call.end();
      }
      yield { type: "end", usage: { inputTokens, outputTokens }, truncated };
    },
    async complete(request): Promise<ModelResult> {
      return bounded("provider_b", creds.apiKey, request.signal, async (call) => {
        const pending = (await sdk()).messages.create({ ...params(request), stream: false }, { signal: call.signal });
        const answer = await call.answer(pending, pending.asResponse());
        const tool = answer.content.find((b) => b.type === "tool_use");
        const text = tool
          ? JSON.stringify(tool.input)
          : answer.content
              .filter((b) => b.type === "text")
              .map((b) => b.text)
              .join("");
        return {
          text,
          truncated: answer.stop_reason === "max_tokens",
          usage: { inputTokens: answer.usage.input_tokens, outputTokens: answer.usage.output_tokens },
        };
      });
    },
  };
}
