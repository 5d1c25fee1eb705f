import type { AiKeySource } from "#db/schema";
import { config } from "~/config.server";
import { candidateKeys } from "~/domain/ai-keys/ai-keys.server";
import { decrypt } from "~/utils/crypto.server";
import { PROVIDER_IDS, type ProviderCredentials, type ProviderId } from "./types";

/**
 * Which provider and key answer a request (decisions.md, "AI providers"):
 * the caller's personal key, then the organization's key, then the
 * platform's key from the environment, then the built-in offline drafter.
 *
 * - An explicit `provider` picks that provider; it is served by the first
 *   of personal, organization and platform that has a key for it, and by the
 *   offline drafter when none has.
 * - Otherwise the first provider (in the order provider_a, provider_b,
 *   provider_c) with a personal key; then with an organization key; then
 *   with a platform key.
 * - A platform provider counts as configured when its key or its base URL is
 *   set, so a local OpenAI-compatible server (Ollama, llama.cpp, vLLM) that
 *   needs no key works with only OPENAI_BASE_URL.
 * - Embeddings only come from providers that have an embeddings API.
 */

export type Capability = "chat" | "embed";
const EMBEDDING_PROVIDERS: readonly ProviderId[] = ["provider_a", "provider_c"];

export type Resolved =
  | { source: "builtin"; provider: "builtin"; model: "builtin" }
  | { source: Exclude<AiKeySource, "builtin">; provider: ProviderId; model: string; keyId: string | null; credentials: ProviderCredentials };

/** Platform settings of one provider from the environment, or null when not configured. */
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
function credentials(provider: ProviderId, apiKey: string): ProviderCredentials {
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
function platformKey(provider: ProviderId): string | null {
  const s = platformSettings(provider);
  if (s.key?.trim()) return s.key.trim();
  if (s.baseUrl) return "not-needed";
  return null;
}

export async function resolveProvider(
  who: { userId: string; orgId: string },
  options: { provider?: ProviderId; capability?: Capability; personal?: boolean } = {},
): Promise<Resolved> {
  const capability = options.capability ?? "chat";
  const allowed = (p: ProviderId) =>
    (capability === "chat" || EMBEDDING_PROVIDERS.includes(p)) && (!options.provider || p === options.provider);
  const stored = await candidateKeys(who.userId, who.orgId);

  // Background work (indexing) is not billed to anyone's personal key.
  const scopes = options.personal === false ? (["organization"] as const) : (["user", "organization"] as const);
  for (const scope of scopes) {
    for (const provider of PROVIDER_IDS) {
      if (!allowed(provider)) continue;
      const row = stored.find((k) => k.scope === scope && k.provider === provider);
      const apiKey = row ? decrypt(row.keyEncrypted) : null;
      if (!row || !apiKey) continue;
      const creds = credentials(provider, apiKey);
      return {
        source: scope === "user" ? "personal" : "organization",
        provider,
        model: capability === "embed" ? creds.embeddingModel! : creds.model,
        keyId: row.id,
        credentials: creds,
      };
    }
  }
  for (const provider of PROVIDER_IDS) {
    if (!allowed(provider)) continue;
    const apiKey = platformKey(provider);
    if (!apiKey) continue;
    const creds = credentials(provider, apiKey);
    return {
      source: "platform",
      provider,
      model: capability === "embed" ? creds.embeddingModel! : creds.model,
      keyId: null,
      credentials: creds,
    };
  }
  return { source: "builtin", provider: "builtin", model: "builtin" };
}
