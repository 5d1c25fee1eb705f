import { logger } from "~/utils/log.server";
import { scrub } from "./providers/errors";
import { probeProvider } from "./providers/index.server";
import { type ConnectionFailure, type ConnectionResult, PROVIDER_SHORT, ProviderError, type ProviderCredentials, type ProviderId } from "./types";
import { plural } from "~/utils/plural";

/**
 * "Test connection": one cheap, unbilled call through the provider's own SDK
 * (app/ai/providers/*: `…Probe`), with a short timeout and no retries, told
 * back in plain words. A failure is a result, not an exception: the caller
 * decides what it means (saving a key refuses only `unauthorized`).
 */

export const PROBE_TIMEOUT_MS = 10_000;

const DEFAULT_ENDPOINT: Record<ProviderId, string> = {
  provider_a: "https://api.openai.com/v1",
  provider_b: "https://api.anthropic.com",
  provider_c: "https://generativelanguage.googleapis.com",
};

/** Where a provider's calls go, fit to show: the base URL without user, password, query or fragment. */
export function endpointOf(provider: ProviderId, baseUrl?: string) {
  const raw = baseUrl ?? DEFAULT_ENDPOINT[provider];
  try {
    const url = new URL(raw);
    url.username = "";
    url.password = "";
    url.search = "";
    url.hash = "";
    return url.toString().replace(/\/+$/, "");
  } catch {
    return "the configured base URL";
  }
}

/** Who answered, as a sentence's subject: "OpenAI", or "The server at http://localhost:11434/v1". */
function whoOf(creds: ProviderCredentials) {
  return creds.baseUrl ? `The server at ${endpointOf(creds.provider, creds.baseUrl)}` : PROVIDER_SHORT[creds.provider];
}

/** Gemini answers a key it does not know with 400 INVALID_ARGUMENT and the reason API_KEY_INVALID. */
function isGoogleKeyInvalid(error: ProviderError) {
  const details = (error.cause as { errorDetails?: { reason?: string }[] } | undefined)?.errorDetails;
  return Array.isArray(details) && details.some((d) => d?.reason === "API_KEY_INVALID");
}

/** The probe's own timeout (the Gemini SDK reports it as an abort; nothing else aborts a probe). */
function isTimeout(error: ProviderError) {
  return error.aborted || /did not answer in time/.test(error.message);
}

function describeFailure(creds: ProviderCredentials, error: unknown): { reason: ConnectionFailure; message: string } {
  const who = whoOf(creds);
  const where = endpointOf(creds.provider, creds.baseUrl);
  if (!(error instanceof ProviderError)) {
    const text = error instanceof Error ? error.message : String(error);
    return { reason: "error", message: `The connection test failed: ${scrub(text, creds.apiKey).slice(0, 300)}` };
  }
  const status = error.status;
  if (status === 401 || (creds.provider === "provider_c" && (status === 403 || isGoogleKeyInvalid(error)))) {
    const code = status === 400 ? "400 API_KEY_INVALID" : String(status);
    return { reason: "unauthorized", message: `${who} rejected this key (${code}). Check that it was copied whole and has not been revoked.` };
  }
  if (status === 404) {
    const hint =
      creds.provider === "provider_c"
        ? `the model ${creds.model} was not found (check GOOGLE_MODEL)`
        : `check the base URL${creds.provider === "provider_a" ? " (an OpenAI-compatible server's usually ends in /v1)" : ""}`;
    return { reason: "not_found", message: `${where} answered 404: ${hint}.` };
  }
  if (status === 429) {
    return { reason: "rate_limited", message: `${who} is rate-limiting this key (429). Try again in a minute, or check the account's quota.` };
  }
  if (status) return { reason: "error", message: error.message };
  if (isTimeout(error)) {
    return {
      reason: "unreachable",
      message: `${where} did not answer within ${PROBE_TIMEOUT_MS / 1000} s — is the server running and reachable from this machine?`,
    };
  }
  return { reason: "unreachable", message: `Could not reach ${where} — is the server running?` };
}

function describeSuccess(creds: ProviderCredentials, modelCount: number | null, modelListed: boolean | null) {
  const models = modelCount === null ? "" : `${plural(modelCount, "model")} listed`;
  if (modelListed) return `model ${creds.model} is available${models ? ` (${models})` : ""}`;
  if (modelListed === false) {
    return `the key works, but ${creds.model} is not among the ${models}: pull it (ollama pull ${creds.model}) or configure a listed model (llama.cpp answers to any name)`;
  }
  return `the key works${models ? ` (${models})` : ""}`;
}

/** Probes one set of credentials and says how it went. Never throws for a provider failure; never logs the key. */
export async function checkConnection(creds: ProviderCredentials, meta: { requestId?: string; source?: string } = {}): Promise<ConnectionResult> {
  const probe = { ...creds, timeoutMs: Math.min(creds.timeoutMs, PROBE_TIMEOUT_MS), maxRetries: 0 };
  const started = performance.now();
  let result: ConnectionResult;
  try {
    const { modelCount, modelListed } = await probeProvider(probe);
    const latencyMs = Math.round(performance.now() - started);
    result = { ok: true, provider: creds.provider, model: creds.model, latencyMs, detail: describeSuccess(creds, modelCount, modelListed) };
  } catch (error) {
    const { reason, message } = describeFailure(creds, error);
    result = { ok: false, provider: creds.provider, reason, message: scrub(message, creds.apiKey) };
  }
  logger.info("ai connection test", {
    requestId: meta.requestId,
    source: meta.source,
    provider: creds.provider,
    ok: result.ok,
    reason: result.ok ? undefined : result.reason,
    latencyMs: result.ok ? result.latencyMs : undefined,
  });
  return result;
}
