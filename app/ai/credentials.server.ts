import { config } from "~/config.server";
import type { ProviderCredentials, ProviderId } from "./types";

/**
 * How a provider is reached: the platform settings from the environment, and
 * the credentials a key is used with. No database here, so key storage
 * (app/domain/ai-keys) and key resolution (keys.server.ts) both build on it.
 */

/** Platform settings of one provider from the environment. */
export function platformSettings(provider: ProviderId) {
  const c = config();
  const settings = {
    provider_a: { key: c.OPENAI_API_KEY, baseUrl: c.OPENAI_BASE_URL, model: c.OPENAI_MODEL, embeddingModel: c.OPENAI_EMBEDDING_MODEL },
    provider_b: { key: c.ANTHROPIC_API_KEY, baseUrl: c.ANTHROPIC_BASE_URL, model: c.ANTHROPIC_MODEL, embeddingModel: undefined },
    provider_c: { key: c.GOOGLE_API_KEY, baseUrl: c.GOOGLE_API_BASE_URL, model: c.GOOGLE_MODEL, embeddingModel: c.GOOGLE_EMBEDDING_MODEL },
  }[provider];
  return settings;
}

/**
 * The base URL is where the operator says the provider lives (a gateway, a
 * regional endpoint, a local OpenAI-compatible server): every key of that
 * provider, personal, organization or platform, is sent there.
 */
export function providerCredentials(provider: ProviderId, apiKey: string): ProviderCredentials {
  const s = platformSettings(provider);
  const c = config();
  return {
    provider,
    apiKey,
    baseUrl: s.baseUrl,
    model: s.model,
    embeddingModel: s.embeddingModel,
    timeoutMs: c.AI_TIMEOUT_MS,
    maxRetries: c.AI_MAX_RETRIES,
  };
}

/** A platform provider is usable with a key, or with only a base URL (local servers need no key). */
export function platformKey(provider: ProviderId): string | null {
  const s = platformSettings(provider);
  if (s.key?.trim()) return s.key.trim();
  if (s.baseUrl) return "not-needed";
  return null;
}

/** The platform's credentials for a provider, or null when the environment configures none. */
export function platformCredentials(provider: ProviderId): ProviderCredentials | null {
  const apiKey = platformKey(provider);
  return apiKey ? providerCredentials(provider, apiKey) : null;
}
