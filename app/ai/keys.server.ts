import type { AiKeySource } from "#db/schema";
import { candidateKeys } from "./stored-keys.server";
import { decrypt } from "~/utils/crypto.server";
import { platformKey, providerCredentials as credentials } from "./credentials.server";
import { PROVIDER_IDS, type ProviderCredentials, type ProviderId } from "./types";

export { platformSettings } from "./credentials.server";

/**
 * Which provider and key answer a request (docs/ai.md, "Who answers"):
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

export async function resolveProvider(
  who: { userId: string; orgId: string },
  options: { provider?: ProviderId; capability?: Capability; personal?: boolean } = {},
): Promise<Resolved> {
  const capability = options.capability ?? "chat";
  const allowed = (p: ProviderId) => (capability === "chat" || EMBEDDING_PROVIDERS.includes(p)) && (!options.provider || p === options.provider);
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
