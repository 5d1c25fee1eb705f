import type { Actor } from "~/domain/actor";
import { AI_RATE_PER_MINUTE } from "~/domain/billing/plans";
import { assertAllowed, RateLimiter } from "~/utils/rate-limiter.server";

/**
 * The plan's AI request rate, per user (decisions.md: free 10, starter 30,
 * pro 60, enterprise 300 a minute). One counter for both doors: the /api
 * boundary (contracts with `rateLimit: "ai"`) and the HTML forms that run AI.
 */
export const aiLimiter = new RateLimiter(60_000);

export function hitAiRate(actor: Actor) {
  return aiLimiter.hit(actor.user.id, AI_RATE_PER_MINUTE[actor.org.plan]);
}

/** For UI actions: counts the request and throws 429 RATE_LIMITED when the minute's budget is spent. */
export function assertAiRate(actor: Actor) {
  assertAllowed(hitAiRate(actor), "AI requests");
}
