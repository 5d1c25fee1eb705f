import { AppError } from "../errors";

/**
 * HTTP to the integration services: JSON in and out, 429 retried after the
 * service's Retry-After (a bounded number of times), every other failure
 * raised as a ProviderHttpError carrying the service's own message. Callers
 * turn those into 502 PROVIDER_ERROR with `providerError`, after handling a
 * 401 by refreshing the token (connections.server.ts).
 */

export const retryPolicy = {
  /** Retries of a request answered 429 (so at most 1 + maxRetries attempts). */
  maxRetries: 2,
  /** A Retry-After longer than this is not waited for: the export fails at once. */
  maxWaitMs: 20_000,
  timeoutMs: 30_000,
  /** Replaced by tests to record the waits instead of sleeping. */
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

export class ProviderHttpError extends Error {
  constructor(
    readonly service: string,
    readonly status: number,
    readonly body: unknown,
    readonly retryAfterSeconds: number | null,
  ) {
    super(`${service} answered ${status}: ${providerMessage(body) ?? "no details"}`);
    this.name = "ProviderHttpError";
  }

  /** The OAuth error code of a token endpoint answer (`invalid_grant` ...), if any. */
  get oauthError(): string | null {
    const b = this.body as { error?: unknown } | null;
    return b && typeof b.error === "string" ? b.error : null;
  }
}

/** The human message in a service's error body: Notion, Atlassian, Google and OAuth shapes. */
export function providerMessage(body: unknown): string | null {
  if (typeof body === "string") return body.trim().slice(0, 300) || null;
  if (!body || typeof body !== "object") return null;
  const b = body as Record<string, any>;
  const candidates = [
    b.message,
    b.error?.message,
    b.error_description,
    typeof b.error === "string" ? b.error : null,
    b.errorMessages?.[0],
    b.data?.errors?.[0]?.message?.translation,
  ];
  const found = candidates.find((c) => typeof c === "string" && c.trim());
  return found ? String(found).slice(0, 300) : null;
}

function retryAfterMs(header: string | null): number {
  if (!header) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? 1000 : Math.max(0, at - Date.now());
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One request; the body (string or bytes) is resent on retries. Returns the parsed JSON body. */
export async function providerFetch<T = any>(service: string, url: string, init: RequestInit): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(retryPolicy.timeoutMs) });
    } catch (error) {
      const reason = error instanceof Error && error.name === "TimeoutError" ? "timed out" : "could not be reached";
      throw new AppError("PROVIDER_ERROR", 502, `${service} ${reason}; try again in a moment`);
    }
    if (res.status === 429 && attempt < retryPolicy.maxRetries) {
      const wait = retryAfterMs(res.headers.get("Retry-After"));
      if (wait <= retryPolicy.maxWaitMs) {
        await res.text().catch(() => "");
        await retryPolicy.sleep(wait);
        continue;
      }
    }
    const body = await readBody(res);
    if (res.ok) return body as T;
    const retryAfter = res.status === 429 ? Math.ceil(retryAfterMs(res.headers.get("Retry-After")) / 1000) : null;
    throw new ProviderHttpError(service, res.status, body, retryAfter);
  }
}

/** 502 PROVIDER_ERROR with the service's message (Retry-After passed on for rate limits). */
export function providerError(error: ProviderHttpError): AppError {
  const message = providerMessage(error.body) ?? `HTTP ${error.status}`;
  if (error.status === 429) {
    const wait = error.retryAfterSeconds ?? 60;
    return new AppError("PROVIDER_ERROR", 502, `${error.service} is rate limiting requests (${message}); try again in ${wait} s`, {
      headers: { "Retry-After": String(wait) },
      extra: { retryAfter: wait, providerStatus: 429 },
    });
  }
  return new AppError("PROVIDER_ERROR", 502, `${error.service} answered ${error.status}: ${message}`, {
    extra: { providerStatus: error.status },
  });
}

/** Standard bodies. */
export const json = (value: unknown) => ({ body: JSON.stringify(value), contentType: "application/json" });
export const form = (value: Record<string, string>) => ({ body: new URLSearchParams(value).toString(), contentType: "application/x-www-form-urlencoded" });
