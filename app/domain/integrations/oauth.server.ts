import type { Role } from "#db/schema";
import type { OauthStatesTable } from "#db/tables/exports";
import { db } from "~/db.server";
import { decrypt, encrypt } from "~/utils/crypto.server";
import { nowIso, randomToken, safeEqual, sha256 } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { AppError } from "../errors";
import { saveConnection } from "./connections.server";
import { ProviderHttpError } from "./http.server";
import type { CallbackError, IntegrationProvider } from "./providers";
import { pkceChallenge } from "./providers/docs.server";
import { OAUTH_CLIENTS } from "./providers/index.server";
import { NoSiteError } from "./providers/wiki.server";
import { providerSettings, requireSettings } from "./settings.server";

/**
 * The OAuth 2 authorization-code flow. `state` is random, stored only as its
 * sha256 with the user, organization, provider, the browser session that
 * started it, a 10-minute expiry and (for PKCE) the encrypted code verifier;
 * the callback consumes it exactly once, and only from that browser session
 * (or, for a flow started with an API key, a session of the same user). So a
 * link started by someone else cannot connect a victim's workspace to the
 * starter's organization: the victim's browser carries the victim's session.
 */

const STATE_TTL_MS = 10 * 60_000;

/** Whose flow a state belongs to: an export integration, Slack, or an issue tracker ("tracker:github"). */
export type OAuthStateProvider = OauthStatesTable["provider"];

/** The redirect URI registered with each service: {APP_URL}/api/integrations/{provider}/callback. */
export const callbackUrl = (provider: IntegrationProvider, baseUrl: string) => `${baseUrl.replace(/\/$/, "")}/api/integrations/${provider}/callback`;

/**
 * A new OAuth `state` for `actor` (kept hashed, bound to the browser session,
 * valid for 10 minutes; expired ones are swept), with the PKCE verifier when
 * the service uses one. Shared by every service's connect, Slack's included.
 */
export async function saveOAuthState(actor: Actor, provider: OAuthStateProvider, verifier: string | null) {
  const state = randomToken(32);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + STATE_TTL_MS).toISOString();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("oauthStates").where("expiresAt", "<", nowIso(now)).execute();
    await trx
      .insertInto("oauthStates")
      .values({
        stateHash: sha256(state),
        orgId: actor.org.id,
        userId: actor.user.id,
        provider,
        codeVerifier: verifier ? encrypt(verifier) : null,
        redirectTo: null,
        sessionId: actor.sessionId ?? null,
        expiresAt,
        createdAt: nowIso(now),
      })
      .execute();
  });
  return { state, expiresAt };
}

/** GET /api/integrations/{provider}/connect: the authorization URL to send the user's browser to. */
export async function startConnect(actor: Actor, provider: IntegrationProvider, baseUrl: string): Promise<{ url: string; expiresAt: string }> {
  const settings = requireSettings(provider);
  const client = OAUTH_CLIENTS[provider];
  const verifier = client.usesPkce ? randomToken(48) : null;
  const { state, expiresAt } = await saveOAuthState(actor, provider, verifier);
  const url = client.authorizationUrl(settings, {
    redirectUri: callbackUrl(provider, baseUrl),
    state,
    codeChallenge: verifier ? pkceChallenge(verifier) : null,
  });
  return { url, expiresAt };
}

export type CallbackOutcome =
  | { ok: true; provider: IntegrationProvider; workspaceName: string }
  | { ok: false; provider: IntegrationProvider; reason: CallbackError };

/** Whether the browser session arriving at the callback is the one the flow is bound to. */
export async function sameBrowser(pending: { userId: string; sessionId: string | null }, browserSessionId: string | null) {
  if (!browserSessionId) return false;
  if (pending.sessionId) return safeEqual(pending.sessionId, browserSessionId);
  const session = await db.selectFrom("sessions").select(["userId", "expiresAt"]).where("id", "=", browserSessionId).executeTakeFirst();
  return Boolean(session && session.userId === pending.userId && session.expiresAt > nowIso());
}

/** Why a callback's state was not accepted (each is also a CallbackError). */
export type StateRefusal = "invalid_state" | "expired_state" | "wrong_session" | "access_denied" | "provider_error";

/**
 * The callback's checks, shared by every OAuth flow: the `state` is spent
 * (deleted) whatever happens next, and accepted only when it is this
 * provider's, unexpired, arriving from the browser session that started the
 * flow, with a code, and its user still a member of the organization (`role`:
 * their role there now). `query.error` from the service (the user declined)
 * is reported only after those checks, so a forged redirect learns nothing.
 */
export async function consumeOAuthState(
  provider: OAuthStateProvider,
  query: { code?: string; state?: string; error?: string },
  browserSessionId: string | null,
): Promise<{ ok: true; pending: OauthStatesTable; code: string; role: Role } | { ok: false; reason: StateRefusal }> {
  const fail = (reason: StateRefusal) => ({ ok: false as const, reason });
  if (!query.state || query.state.length > 200) return fail("invalid_state");
  const pending = await db.deleteFrom("oauthStates").where("stateHash", "=", sha256(query.state)).returningAll().executeTakeFirst();
  if (!pending || pending.provider !== provider) return fail("invalid_state");
  if (Date.parse(pending.expiresAt) <= Date.now()) return fail("expired_state");
  if (!(await sameBrowser(pending, browserSessionId))) return fail("wrong_session");
  if (query.error) return fail(query.error === "access_denied" ? "access_denied" : "provider_error");
  if (!query.code) return fail("invalid_state");
  const member = await db.selectFrom("memberships").select("role").where("orgId", "=", pending.orgId).where("userId", "=", pending.userId).executeTakeFirst();
  if (!member) return fail("invalid_state");
  return { ok: true, pending, code: query.code, role: member.role };
}

/**
 * GET /api/integrations/{provider}/callback, authenticated by `state` and by
 * the browser session it was bound to (`browserSessionId`: the hashed id of
 * the session cookie the callback arrived with, or null).
 * Never throws for the caller's mistakes: the outcome says what happened.
 */
export async function completeConnect(
  provider: IntegrationProvider,
  query: { code?: string; state?: string; error?: string },
  baseUrl: string,
  browserSessionId: string | null,
): Promise<CallbackOutcome> {
  const fail = (reason: CallbackError): CallbackOutcome => ({ ok: false, provider, reason });
  const taken = await consumeOAuthState(provider, query, browserSessionId);
  if (!taken.ok) return fail(taken.reason);
  const { pending } = taken;
  const settings = providerSettings(provider);
  if (!settings) return fail("not_configured");
  const verifier = pending.codeVerifier ? decrypt(pending.codeVerifier) : null;
  try {
    const result = await OAUTH_CLIENTS[provider].exchangeCode(settings, {
      code: taken.code,
      redirectUri: callbackUrl(provider, baseUrl),
      codeVerifier: verifier,
    });
    await db.transaction().execute((trx) => saveConnection(trx, { orgId: pending.orgId, userId: pending.userId }, provider, result));
    return { ok: true, provider, workspaceName: result.workspaceName };
  } catch (error) {
    if (error instanceof NoSiteError) return fail("no_site");
    if (error instanceof ProviderHttpError) return fail(error.status >= 400 && error.status < 500 && error.status !== 429 ? "token_error" : "provider_error");
    if (error instanceof AppError && error.code === "PROVIDER_ERROR") return fail("provider_error");
    throw error;
  }
}
