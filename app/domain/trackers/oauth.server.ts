import type { OauthStatesTable } from "#db/tables/exports";
import { db } from "~/db.server";
import { encrypt } from "~/utils/crypto.server";
import { newId, nowIso, randomToken } from "~/utils/ids.server";
import { logger } from "~/utils/log.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { writeAudit } from "../audit/audit.server";
import { AppError } from "../errors";
import { ProviderHttpError } from "../integrations/http.server";
import { consumeOAuthState, saveOAuthState } from "../integrations/oauth.server";
import { TRACKER_INFO, TrackerError, type TrackerService } from "./adapter";
import { adapterFor } from "./connections.server";
import { NoJiraSite, TokenRefused, TRACKER_OAUTH, type TrackerGrant } from "./oauth-clients.server";
import { expiresAtOf } from "./oauth-tokens.server";

/**
 * Connecting an issue tracker with OAuth 2 (docs/trackers.md, "Connecting
 * with OAuth"), on the export integrations' flow: a single-use `state`, kept
 * hashed, bound to the admin's browser session and valid 10 minutes
 * (saveOAuthState / consumeOAuthState, provider "tracker:<service>"). The
 * callback exchanges the code, checks the token with the service's adapter
 * (the account's name) and stores an `oauth` connection: access and refresh
 * tokens encrypted, the access token's expiry. Connecting the same account
 * again renews that connection, so its webhook URL and secret stay.
 */

export const trackerCallbackUrl = (service: TrackerService, baseUrl: string) => `${baseUrl.replace(/\/+$/, "")}/api/integrations/trackers/${service}/callback`;

const stateProvider = (service: TrackerService) => `tracker:${service}` as const;

/** The service's OAuth client, or 409 CONFLICT naming the variables the server's operator must set. */
export function requireTrackerOAuth(service: TrackerService) {
  const client = TRACKER_OAUTH[service];
  const settings = client.settings();
  if (settings) return settings;
  throw new AppError(
    "CONFLICT",
    409,
    `Connecting ${TRACKER_INFO[service].name} with OAuth is not set up on this server: its operator must set ${client.env.clientId} and ${client.env.clientSecret} (a token can be pasted instead)`,
  );
}

/** GET /api/integrations/trackers/{service}/connect: the service's authorization URL to send the admin's browser to. */
export async function startTrackerOAuth(actor: Actor, service: TrackerService, baseUrl: string): Promise<{ url: string; expiresAt: string }> {
  requireRole(actor, ADMIN_ROLES, "connect issue trackers");
  adapterFor(service);
  const settings = requireTrackerOAuth(service);
  const { state, expiresAt } = await saveOAuthState(actor, stateProvider(service), null);
  return { url: TRACKER_OAUTH[service].authorizationUrl(settings, { redirectUri: trackerCallbackUrl(service, baseUrl), state }), expiresAt };
}

export type TrackerCallbackError =
  | "access_denied"
  | "invalid_state"
  | "expired_state"
  | "wrong_session"
  | "not_allowed"
  | "token_error"
  | "no_site"
  | "not_configured"
  | "provider_error";

/** What the settings page says after a callback that connected nothing. */
export function trackerCallbackMessage(service: TrackerService, reason: TrackerCallbackError) {
  const name = TRACKER_INFO[service].name;
  const again = `Start again with “Connect with ${name}”.`;
  const messages: Record<TrackerCallbackError, string> = {
    access_denied: `You declined access in ${name}, so nothing was connected.`,
    invalid_state: `This sign-in link is not valid (already used, or not started here), so nothing was connected. ${again}`,
    expired_state: `The sign-in took longer than 10 minutes, so nothing was connected. ${again}`,
    wrong_session: `This sign-in was started in another browser or by another account, so nothing was connected. ${again}`,
    not_allowed: "Only owners and admins can connect issue trackers, so nothing was connected.",
    token_error: `${name} did not accept the sign-in, so nothing was connected. ${again}`,
    no_site: "Your Atlassian account gave this app no Jira Cloud site, so nothing was connected. Choose a Jira site when you allow access.",
    not_configured: `Connecting ${name} with OAuth is not set up on this server. Paste a token instead.`,
    provider_error: `${name} could not be reached or answered with an error, so nothing was connected. Try again in a moment.`,
  };
  return messages[reason];
}

export type TrackerCallbackOutcome =
  | { ok: true; service: TrackerService; accountLabel: string; renewed: boolean }
  | { ok: false; service: TrackerService; reason: TrackerCallbackError };

function exchangeFailure(error: unknown): TrackerCallbackError {
  if (error instanceof NoJiraSite) return "no_site";
  if (error instanceof TokenRefused) return "token_error";
  if (error instanceof ProviderHttpError) return error.status >= 400 && error.status < 500 && error.status !== 429 ? "token_error" : "provider_error";
  if (error instanceof AppError && error.code === "PROVIDER_ERROR") return "provider_error";
  throw error;
}

/**
 * GET /api/integrations/trackers/{service}/callback, authenticated by `state`
 * and the browser session it is bound to (`browserSessionId`: the hashed id
 * of the session cookie the callback came with). Never throws for the
 * caller's mistakes: the outcome says what happened.
 */
export async function completeTrackerOAuth(
  service: TrackerService,
  query: { code?: string; state?: string; error?: string },
  baseUrl: string,
  browserSessionId: string | null,
): Promise<TrackerCallbackOutcome> {
  const fail = (reason: TrackerCallbackError): TrackerCallbackOutcome => ({ ok: false, service, reason });
  const taken = await consumeOAuthState(stateProvider(service), query, browserSessionId);
  if (!taken.ok) return fail(taken.reason);
  if (!ADMIN_ROLES.includes(taken.role)) return fail("not_allowed");
  const client = TRACKER_OAUTH[service];
  const settings = client.settings();
  if (!settings) return fail("not_configured");
  let grant: TrackerGrant;
  try {
    grant = await client.exchangeCode(settings, { code: taken.code, redirectUri: trackerCallbackUrl(service, baseUrl) });
  } catch (error) {
    return fail(exchangeFailure(error));
  }
  let accountLabel: string;
  try {
    ({ accountLabel } = await adapterFor(service).validate({ token: grant.accessToken, authKind: "oauth", settings: grant.settings }));
  } catch (error) {
    logger.warn(`[trackers] ${service} OAuth token was not accepted`, { error: String(error) });
    return fail(error instanceof TrackerError && error.kind === "auth" ? "token_error" : "provider_error");
  }
  const renewed = await saveOAuthConnection(taken.pending, service, grant, accountLabel.slice(0, 200));
  return { ok: true, service, accountLabel, renewed };
}

/** Inserts the connection, or renews the organization's OAuth connection of the same account (and Jira site). True when renewed. */
async function saveOAuthConnection(pending: OauthStatesTable, service: TrackerService, grant: TrackerGrant, accountLabel: string) {
  const now = nowIso();
  const tokens = {
    tokenEncrypted: encrypt(grant.accessToken),
    refreshTokenEncrypted: grant.refreshToken ? encrypt(grant.refreshToken) : null,
    tokenExpiresAt: expiresAtOf(grant),
    settings: JSON.stringify(grant.settings),
    lastError: null,
    updatedAt: now,
  };
  return db.transaction().execute(async (trx) => {
    const same = await trx
      .selectFrom("trackerConnections")
      .select(["id", "settings"])
      .where("orgId", "=", pending.orgId)
      .where("service", "=", service)
      .where("authKind", "=", "oauth")
      .where("accountLabel", "=", accountLabel)
      .execute();
    const existing = same.find((r) => (JSON.parse(r.settings) as Record<string, string>).cloudId === grant.settings.cloudId);
    const id = existing?.id ?? newId();
    if (existing) await trx.updateTable("trackerConnections").set(tokens).where("id", "=", id).execute();
    else {
      await trx
        .insertInto("trackerConnections")
        .values({
          id,
          orgId: pending.orgId,
          service,
          authKind: "oauth",
          accountLabel,
          webhookSecretEncrypted: encrypt(randomToken(24)),
          createdById: pending.userId,
          createdAt: now,
          ...tokens,
        })
        .execute();
    }
    await writeAudit(trx, {
      orgId: pending.orgId,
      actorId: pending.userId,
      action: "tracker.connected",
      category: "settings",
      targetType: "tracker_connection",
      targetId: id,
      metadata: { service, accountLabel, authKind: "oauth", renewed: Boolean(existing) },
    });
    return Boolean(existing);
  });
}
