import type { AppLoadContext } from "@remix-run/node";
import { isPrimary } from "~/db.server";
import type { Actor } from "~/domain/actor";
import { assertIpAllowed } from "~/domain/allowlist/allowlist.server";
import { actorFromApiKey, touchApiKey } from "~/domain/api-keys/api-keys.server";
import { API_KEY_RATE_PER_MINUTE } from "~/domain/billing/plans";
import { unauthorized } from "~/domain/errors";
import { actorFromSession } from "~/domain/sessions/sessions.server";
import { assertAllowed, type RateResult, rateHeaders, RateLimiter } from "~/utils/rate-limiter.server";
import { requestMeta } from "../context.server";
import { readSessionId } from "../session.server";

export const apiKeyLimiter = new RateLimiter(60_000);

export interface Authentication {
  actor: Actor | null;
  /** Headers to add to the response (rate-limit state for API keys). */
  headers: Record<string, string>;
  /**
   * API keys: counts one more request against the key's per-minute limit and
   * returns the window's state (an MCP batch's further messages, each charged
   * as its own request).
   */
  charge?: () => RateResult;
}

/**
 * Who is calling: `Authorization: Bearer svc_...` first, then the session
 * cookie. A present but bad API key is an error (401), never anonymous.
 */
export async function authenticate(request: Request, context?: AppLoadContext): Promise<Authentication> {
  const meta = requestMeta(request, context);
  const header = request.headers.get("Authorization");
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized("Authorization header must be `Bearer <API_KEY>`");
    const { actor, key } = await actorFromApiKey(match[1]!, meta);
    const charge = () => apiKeyLimiter.hit(key.id, key.rateLimit ?? API_KEY_RATE_PER_MINUTE);
    const rate = charge();
    assertAllowed(rate, "requests for this API key");
    await assertIpAllowed(actor);
    if (isPrimary()) await touchApiKey(key).catch(() => {});
    return { actor, headers: rateHeaders(rate), charge };
  }
  const sessionId = await readSessionId(request);
  if (!sessionId) return { actor: null, headers: {} };
  const actor = await actorFromSession(sessionId, meta);
  if (actor) await assertIpAllowed(actor);
  return { actor, headers: {} };
}
