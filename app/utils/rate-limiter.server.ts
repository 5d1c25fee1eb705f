import { AppError } from "~/domain/errors";

/**
 * Fixed-window counters kept in this process's memory. On several machines
 * each keeps its own window, so the effective limit is per machine; see
 * docs/operations.md.
 */
export interface RateResult {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
  allowed: boolean;
}

export class RateLimiter {
  private windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly windowMs = 60_000) {}

  hit(key: string, limit: number, now = Date.now()): RateResult {
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, w);
      if (this.windows.size > 50_000) this.sweep(now);
    }
    w.count++;
    return {
      limit,
      remaining: Math.max(0, limit - w.count),
      reset: Math.ceil(w.resetAt / 1000),
      allowed: w.count <= limit,
    };
  }

  /** The state of a window without counting a request. */
  peek(key: string, limit: number, now = Date.now()): RateResult {
    const w = this.windows.get(key);
    const count = w && w.resetAt > now ? w.count : 0;
    const resetAt = w && w.resetAt > now ? w.resetAt : now + this.windowMs;
    return { limit, remaining: Math.max(0, limit - count), reset: Math.ceil(resetAt / 1000), allowed: count < limit };
  }

  reset() {
    this.windows.clear();
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}

export function rateHeaders(r: RateResult, now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(r.limit),
    "X-RateLimit-Remaining": String(r.remaining),
    "X-RateLimit-Reset": String(r.reset),
  };
  if (!r.allowed) headers["Retry-After"] = String(Math.max(1, Math.ceil((r.reset * 1000 - now) / 1000)));
  return headers;
}

/** Throws 429 RATE_LIMITED with the standard headers when `r` is over its limit. */
export function assertAllowed(r: RateResult, what = "requests") {
  if (r.allowed) return;
  const headers = rateHeaders(r);
  throw new AppError("RATE_LIMITED", 429, `Too many ${what}; try again in ${headers["Retry-After"]} s`, {
    headers,
  });
}
