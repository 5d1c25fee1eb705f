import { PROVIDER_SHORT, ProviderError, type ProviderId } from "../types";

/**
 * Turns whatever an SDK threw into a ProviderError whose message is safe to
 * show and log: the provider's own message, its HTTP status when there was
 * one, and never the API key (removed wherever it appears).
 */

export function scrub(text: string, apiKey: string) {
  let out = text;
  if (apiKey && apiKey.length >= 6) out = out.split(apiKey).join("[key]");
  // Anything that looks like a provider key (sk-…, sk-ant-…, AIza…) is masked too.
  return out.replace(/\b(sk-[A-Za-z0-9_-]{4})[A-Za-z0-9_-]{8,}/g, "$1…").replace(/\bAIza[0-9A-Za-z_-]{10,}/g, "AIza…");
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown })?.status;
  return typeof status === "number" && status >= 100 ? status : undefined;
}

function isAbort(error: unknown, signal?: AbortSignal) {
  if (signal?.aborted) return true;
  const name = (error as { name?: string })?.name ?? "";
  return name === "AbortError" || name === "APIUserAbortError" || name === "GoogleGenerativeAIAbortError";
}

function isTimeout(error: unknown) {
  const name = (error as { name?: string })?.name ?? "";
  return name === "APIConnectionTimeoutError" || name === "TimeoutError" || /timed? ?out/i.test(String((error as Error)?.message));
}

export function toProviderError(provider: ProviderId, error: unknown, apiKey: string, signal?: AbortSignal): ProviderError {
  if (error instanceof ProviderError) return error;
  const label = PROVIDER_SHORT[provider];
  if (isAbort(error, signal)) {
    return new ProviderError(provider, `The request to ${label} was cancelled`, { aborted: true, cause: error });
  }
  const status = statusOf(error);
  const raw = error instanceof Error ? error.message : String(error);
  let message: string;
  if (status === 429) message = `${label} is rate-limiting requests (429): ${raw}`;
  else if (status === 401 || status === 403) message = `${label} refused the API key (${status}): ${raw}`;
  else if (status) message = `${label} answered with an error (${status}): ${raw}`;
  else if (isTimeout(error)) message = `${label} did not answer in time`;
  else message = `${label} could not be reached or its stream broke: ${raw}`;
  return new ProviderError(provider, scrub(message, apiKey).slice(0, 600), { status, cause: error });
}
