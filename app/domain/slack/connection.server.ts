import { db, type Executor } from "~/db.server";
import { decrypt, encrypt } from "~/utils/crypto.server";
import { nowIso } from "~/utils/ids.server";
import { logger } from "~/utils/log.server";
import { type Actor, isAdmin } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { AppError, forbidden, notFound } from "../errors";
import { consumeOAuthState, saveOAuthState } from "../integrations/oauth.server";
import { forgetChannels } from "./channels.server";
import { SLACK_AUTHORIZE_URL, SLACK_ENV, SLACK_SCOPES, slackClient, slackFailure, slackSettings } from "./client.server";

/**
 * The organization's Slack workspace connection (one per organization,
 * made and removed by owners and admins): OAuth v2 with a single-use state
 * bound to the browser session (as for the other integrations), the bot
 * token encrypted at rest, and the last failure kept in plain words.
 */

const _STATE_TTL_MS = 10 * 60_000;
/** oauthStates rows of the Slack flow carry this provider name. */
const STATE_PROVIDER = "slack";

export const slackCallbackUrl = (baseUrl: string) => `${baseUrl.replace(/\/$/, "")}/api/integrations/slack/callback`;

export const requireSlackAdmin = (actor: Actor) => {
  if (!isAdmin(actor)) throw forbidden("Only owners and admins can change the Slack connection");
};

/** Members do not learn about a Slack the operator has not set up: 404. Owners and admins get the explanation. */
export function requireSlackVisible(actor: Actor) {
  if (!slackSettings() && !isAdmin(actor)) throw notFound("Page");
}

export function requireSlackConfigured() {
  const settings = slackSettings();
  if (!settings) {
    throw new AppError("CONFLICT", 409, `Slack is not set up on this server: its administrator must set ${SLACK_ENV.clientId} and ${SLACK_ENV.clientSecret}`);
  }
  return settings;
}

export const connectionRow = (orgId: string, ex: Executor = db) => ex.selectFrom("slackConnections").selectAll().where("orgId", "=", orgId).executeTakeFirst();

/** The bot token of an organization's working connection, or null (none, broken, or unreadable after a key change). */
export async function activeToken(orgId: string, ex: Executor = db) {
  const row = await connectionRow(orgId, ex);
  if (!row || row.status !== "active") return null;
  const token = decrypt(row.accessToken);
  return token ? { token, row } : null;
}

/** POST /api/integrations/slack/connect: the Slack authorization URL to send the browser to. */
export async function startSlackConnect(actor: Actor, baseUrl: string): Promise<{ url: string; expiresAt: string }> {
  requireSlackAdmin(actor);
  const settings = requireSlackConfigured();
  const { state, expiresAt } = await saveOAuthState(actor, STATE_PROVIDER, null);
  const url = new URL(SLACK_AUTHORIZE_URL);
  url.searchParams.set("client_id", settings.clientId);
  url.searchParams.set("scope", SLACK_SCOPES.join(","));
  url.searchParams.set("redirect_uri", slackCallbackUrl(baseUrl));
  url.searchParams.set("state", state);
  return { url: url.toString(), expiresAt };
}

export const SLACK_CALLBACK_ERRORS = {
  access_denied: "You cancelled the authorization in Slack, so nothing was connected.",
  invalid_state: "This authorization link is not valid (already used, or started by someone else). Start again with Connect Slack.",
  wrong_session: "This authorization was started in another browser session or by another account, so nothing was connected. Start again with Connect Slack.",
  expired_state: "The authorization took longer than 10 minutes. Start again with Connect Slack.",
  not_allowed: "Only owners and admins can connect Slack.",
  token_error: "Slack refused the authorization code. Start again with Connect Slack.",
  not_configured: "Slack is not set up on this server.",
  provider_error: "Slack could not be reached or answered with an error. Try again in a moment.",
} as const;
export type SlackCallbackError = keyof typeof SLACK_CALLBACK_ERRORS;

/** GET /api/integrations/slack/callback: authenticated by `state` and the browser session it is bound to. Never throws for the caller's mistakes. */
export async function completeSlackConnect(
  query: { code?: string; state?: string; error?: string },
  baseUrl: string,
  browserSessionId: string | null,
): Promise<{ ok: true; teamName: string } | { ok: false; reason: SlackCallbackError }> {
  const fail = (reason: SlackCallbackError) => ({ ok: false as const, reason });
  const consumed = await consumeOAuthState("slack", query, browserSessionId);
  if (!consumed.ok) return fail(consumed.reason);
  const { pending, code, role } = consumed;
  if (role !== "owner" && role !== "admin") return fail("not_allowed");
  const settings = slackSettings();
  if (!settings) return fail("not_configured");
  let result: { access_token?: string; scope?: string; bot_user_id?: string; team?: { id?: string; name?: string } };
  try {
    result = await slackClient().oauth.v2.access({
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
      code,
      redirect_uri: slackCallbackUrl(baseUrl),
    });
  } catch (error) {
    const f = slackFailure(error);
    return fail(f.error === "unreachable" || f.error === "ratelimited" || f.error.startsWith("http_") ? "provider_error" : "token_error");
  }
  if (!result.access_token || !result.team?.id) return fail("token_error");
  const now = nowIso();
  const values = {
    teamId: result.team.id,
    teamName: result.team.name ?? result.team.id,
    botUserId: result.bot_user_id ?? null,
    accessToken: encrypt(result.access_token),
    scopes: result.scope ?? null,
    connectedById: pending.userId,
    status: "active" as const,
    lastError: null,
    lastErrorAt: null,
    updatedAt: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("slackConnections")
      .values({ orgId: pending.orgId, ...values, defaultChannelId: null, defaultChannelName: null, createdAt: now })
      .onConflict((oc) => oc.column("orgId").doUpdateSet(values))
      .execute();
    await writeAudit(trx, {
      orgId: pending.orgId,
      actorId: pending.userId,
      action: "integration.connected",
      category: "settings",
      targetType: "integration",
      targetId: "slack",
      metadata: { provider: "slack", workspaceName: values.teamName },
    });
  });
  forgetChannels(pending.orgId);
  return { ok: true, teamName: values.teamName };
}

/** POST /api/integrations/slack/disconnect: revokes the token at Slack (best effort) and deletes it. Routing is kept for a later reconnection. */
export async function disconnectSlack(actor: Actor): Promise<{ success: true; wasConnected: boolean }> {
  requireSlackAdmin(actor);
  const found = await db.transaction().execute(async (trx) => {
    const row = await connectionRow(actor.org.id, trx);
    if (!row) return null;
    await trx.deleteFrom("slackConnections").where("orgId", "=", actor.org.id).execute();
    await trx
      .updateTable("slackDeliveries")
      .set({ status: "failed", lastError: "Slack was disconnected", updatedAt: nowIso() })
      .where("orgId", "=", actor.org.id)
      .where("status", "=", "pending")
      .execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "integration.disconnected",
      category: "settings",
      targetType: "integration",
      targetId: "slack",
      metadata: { provider: "slack", workspaceName: row.teamName },
    });
    return row;
  });
  forgetChannels(actor.org.id);
  const token = found ? decrypt(found.accessToken) : null;
  if (token && slackSettings()) {
    await slackClient(token)
      .auth.revoke()
      .catch((error) => logger.warn("[slack] token revocation failed", { requestId: actor.requestId, error: String(error) }));
  }
  return { success: true, wasConnected: !!found };
}

/** Keeps a failure on the connection for the settings page; auth failures mark it as needing reconnection. */
export async function recordSlackError(orgId: string, message: string, needsReconnect = false) {
  await db
    .updateTable("slackConnections")
    .set({ lastError: message, lastErrorAt: nowIso(), ...(needsReconnect ? { status: "needs_reconnect" as const } : {}), updatedAt: nowIso() })
    .where("orgId", "=", orgId)
    .execute();
}

export async function clearSlackError(orgId: string) {
  await db.updateTable("slackConnections").set({ lastError: null, lastErrorAt: null }).where("orgId", "=", orgId).where("lastError", "is not", null).execute();
}
