import type { Actor } from "~/domain/actor";
import { AppError } from "~/domain/errors";
import { AI_RATE_PER_MINUTE } from "~/domain/billing/plans";
import { RateLimiter } from "~/utils/rate-limiter.server";
import { resolveProvider } from "~/ai/keys.server";
import { PROVIDER_IDS, type ProviderId } from "~/ai/types";

/**
 * The plan's AI request rate, per user (docs/ai.md: free 10, starter 30,
 * pro 60, enterprise 300 a minute). One counter for every door: the policy
 * (app/http/policy/guard.server.ts) counts contracts with `rateLimit: "ai"`
 * for /api, /mcp and the HTML forms that run AI; nothing else calls these.
 */
export const aiLimiter = new RateLimiter(60_000);

export function hitAiRate(actor: Actor) {
  return aiLimiter.hit(actor.user.id, AI_RATE_PER_MINUTE[actor.org.plan]);
}

/**
 * Whether a request will reach an AI provider. The offline drafter runs on
 * this machine and costs nothing: its requests do not count against the
 * plan's AI rate (docs/ai.md). The concurrency cap still applies to them.
 */
export async function usesProvider(actor: Actor, provider?: unknown) {
  const explicit = PROVIDER_IDS.includes(provider as ProviderId) ? (provider as ProviderId) : undefined;
  const resolved = await resolveProvider({ userId: actor.user.id, orgId: actor.org.id }, { provider: explicit });
  return resolved.source !== "builtin";
}

/**
 * AI requests one user may have running at once (streams included): beyond
 * it, 429 RATE_LIMITED until one ends. Holds a provider connection, a token
 * budget and memory per stream, so one account cannot hold hundreds open.
 */
export const AI_CONCURRENT_PER_USER = 5;
const running = new Map<string, number>();

/** Takes one of the user's AI slots (or throws 429); the returned function gives it back, once. */
export function acquireAiSlot(actor: Actor): () => void {
  const id = actor.user.id;
  const n = running.get(id) ?? 0;
  if (n >= AI_CONCURRENT_PER_USER) {
    const retry = 5;
    throw new AppError(
      "RATE_LIMITED",
      429,
      `You already have ${AI_CONCURRENT_PER_USER} AI requests running. Wait for one to finish, or stop one, and try again.`,
      {
        headers: {
          "Retry-After": String(retry),
          "X-RateLimit-Limit": String(AI_CONCURRENT_PER_USER),
          "X-RateLimit-Remaining": "0",
          "X-RateLimit-Reset": String(Math.ceil(Date.now() / 1000) + retry),
        },
      },
    );
  }
  running.set(id, n + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (running.get(id) ?? 1) - 1;
    if (left <= 0) running.delete(id);
    else running.set(id, left);
  };
}

/** The response, with `release` called when its body has been sent or abandoned (a stream's end), or at once without a body. */
export function releaseAfterBody(response: Response, release: () => void): Response {
  if (!response.body) {
    release();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
