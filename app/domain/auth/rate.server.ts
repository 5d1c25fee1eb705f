import { assertAllowed, RateLimiter } from "~/utils/rate-limiter.server";

/** Auth endpoints: 10 requests per minute per IP and per e-mail (decisions.md). */
export const AUTH_RATE_PER_MINUTE = 10;
export const authLimiter = new RateLimiter(60_000);

export function checkAuthRate(ip: string | null, email: string) {
  if (ip) assertAllowed(authLimiter.hit(`ip:${ip}`, AUTH_RATE_PER_MINUTE), "sign-in attempts");
  assertAllowed(authLimiter.hit(`id:${email.trim().toLowerCase()}`, AUTH_RATE_PER_MINUTE), "sign-in attempts");
}
