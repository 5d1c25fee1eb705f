import { assertAllowed, RateLimiter } from "~/utils/rate-limiter.server";

/** Auth endpoints: 10 requests per minute per IP and per e-mail (docs/security.md). */
export const AUTH_RATE_PER_MINUTE = 10;
export const authLimiter = new RateLimiter(60_000);

/**
 * 10 a minute per IP, and 10 a minute per e-mail. For sign-in the e-mail
 * limit counts per (e-mail, IP) (`perSource`): otherwise anyone could keep an
 * owner's own sign-ins refused with 429 by sending 10 guesses a minute from
 * elsewhere. Guessing one address from many IPs is slowed down by the
 * lockout instead (lockout.server.ts). Mail-sending endpoints keep the
 * address-wide limit, which protects the mailbox from being flooded.
 */
export function checkAuthRate(ip: string | null, email: string, options: { perSource?: boolean } = {}) {
  if (ip) assertAllowed(authLimiter.hit(`ip:${ip}`, AUTH_RATE_PER_MINUTE), "sign-in attempts");
  const id = email.trim().toLowerCase();
  const key = options.perSource ? `id:${id}:${ip ?? "unknown"}` : `id:${id}`;
  assertAllowed(authLimiter.hit(key, AUTH_RATE_PER_MINUTE), "sign-in attempts");
}
