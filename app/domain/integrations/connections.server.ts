import type { IntegrationConnectionsTable } from "#db/tables/exports";
import { db, type Executor } from "~/db.server";
import { decrypt, encrypt } from "~/utils/crypto.server";
import { logger } from "~/utils/log.server";
import { newId, nowIso } from "~/utils/ids.server";
import { type Actor, isAdmin } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { AppError } from "../errors";
import { ProviderHttpError, providerError } from "./http.server";
import { INTEGRATION_PROVIDERS, type IntegrationProvider, PROVIDER_INFO, providerEnvNames } from "./providers";
import { OAUTH_CLIENTS } from "./providers/index.server";
import type { Authorized, ConnectedAccount, TokenSet } from "./providers/types";
import { type ProviderSettings, providerSettings, requireSettings } from "./settings.server";

/**
 * A user's connection to a service, per organization: tokens encrypted at
 * rest (AES-256-GCM, app/utils/crypto.server.ts), refreshed before they
 * expire or after a 401, rotated refresh tokens persisted.
 */

export interface IntegrationStatus {
  connected: boolean;
  workspaceName: string | null;
  connectedAt: string | null;
}

export interface Connection {
  id: string;
  orgId: string;
  userId: string;
  provider: IntegrationProvider;
  accessToken: string;
  refreshToken: string | null;
  expiresAt: string | null;
  workspaceId: string | null;
  workspaceName: string | null;
}

const row = (actor: Actor, provider: IntegrationProvider, ex: Executor = db) =>
  ex
    .selectFrom("integrationConnections")
    .selectAll()
    .where("orgId", "=", actor.org.id)
    .where("userId", "=", actor.user.id)
    .where("provider", "=", provider)
    .executeTakeFirst();

const present = (r: IntegrationConnectionsTable | undefined): IntegrationStatus =>
  r ? { connected: true, workspaceName: r.workspaceName, connectedAt: r.createdAt } : { connected: false, workspaceName: null, connectedAt: null };

const rowsOf = (actor: Actor) =>
  db.selectFrom("integrationConnections").selectAll().where("orgId", "=", actor.org.id).where("userId", "=", actor.user.id).execute();

/** GET /api/integrations/status: the caller's own connections in the current organization. */
export async function integrationsStatus(actor: Actor): Promise<{ integrations: Record<IntegrationProvider, IntegrationStatus> }> {
  const by = new Map((await rowsOf(actor)).map((r) => [r.provider, r]));
  return { integrations: { notes: present(by.get("notes")), wiki: present(by.get("wiki")), docs: present(by.get("docs")) } };
}

/**
 * The settings page's services. A service this server has not set up (no
 * OAuth client id and secret) is left out for members: there is nothing
 * they can do with it (unless a connection of theirs is still stored, so
 * they can disconnect it). Owners and admins see it, with `setup`: the
 * variables the server's administrator must set (never their values).
 */
export async function integrationCards(actor: Actor) {
  const by = new Map((await rowsOf(actor)).map((r) => [r.provider, r]));
  const admin = isAdmin(actor);
  return INTEGRATION_PROVIDERS.map((provider) => {
    const configured = providerSettings(provider) !== null;
    return {
      provider,
      ...PROVIDER_INFO[provider],
      configured,
      setup: configured || !admin ? null : providerEnvNames(provider),
      accountEmail: by.get(provider)?.accountEmail ?? null,
      ...present(by.get(provider)),
    };
  }).filter((card) => admin || card.configured || card.connected);
}

const expiresAt = (t: TokenSet) => (t.expiresIn ? new Date(Date.now() + t.expiresIn * 1000).toISOString() : null);

/** Stores (or replaces) the caller's connection after a successful authorization. */
export async function saveConnection(trx: Executor, owner: { orgId: string; userId: string }, provider: IntegrationProvider, t: TokenSet & ConnectedAccount) {
  const now = nowIso();
  const values = {
    accessToken: encrypt(t.accessToken),
    refreshToken: t.refreshToken ? encrypt(t.refreshToken) : null,
    expiresAt: expiresAt(t),
    workspaceId: t.workspaceId,
    workspaceName: t.workspaceName,
    accountEmail: t.accountEmail,
    scopes: t.scopes,
    createdAt: now,
    updatedAt: now,
  };
  await trx
    .insertInto("integrationConnections")
    .values({ id: newId(), orgId: owner.orgId, userId: owner.userId, provider, ...values })
    .onConflict((oc) => oc.columns(["orgId", "userId", "provider"]).doUpdateSet(values))
    .execute();
  await writeAudit(trx, {
    orgId: owner.orgId,
    actorId: owner.userId,
    action: "integration.connected",
    category: "settings",
    targetType: "integration",
    targetId: provider,
    metadata: { provider, workspaceName: t.workspaceName },
  });
}

/** POST /api/integrations/{provider}/disconnect: forgets the tokens (revoked at the service when it can). Idempotent. */
export async function disconnect(actor: Actor, provider: IntegrationProvider): Promise<{ success: true; wasConnected: boolean }> {
  const found = await db.transaction().execute(async (trx) => {
    const r = await row(actor, provider, trx);
    if (!r) return null;
    await trx.deleteFrom("integrationConnections").where("id", "=", r.id).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "integration.disconnected",
      category: "settings",
      targetType: "integration",
      targetId: provider,
      metadata: { provider },
    });
    return r;
  });
  const client = OAUTH_CLIENTS[provider];
  const settings = providerSettings(provider);
  const tokens = found ? { accessToken: decrypt(found.accessToken), refreshToken: found.refreshToken ? decrypt(found.refreshToken) : null } : null;
  if (tokens && settings && client.revoke) {
    await client
      .revoke(settings, tokens)
      .catch((error) => logger.warn(`[integrations] ${provider} revocation failed`, { requestId: actor.requestId, error: String(error) }));
  }
  return { success: true, wasConnected: !!found };
}

export const notConnected = (provider: IntegrationProvider, why = "is not connected") =>
  new AppError(
    "INTEGRATION_NOT_CONNECTED",
    409,
    `Your ${PROVIDER_INFO[provider].account} account ${why}: connect it in Settings → Integrations (GET /api/integrations/${provider}/connect)`,
    { extra: { provider } },
  );

/** 409 INTEGRATION_NOT_CONNECTED unless the caller has a connection (checked before anything else is asked of them). */
export async function requireConnection(actor: Actor, provider: IntegrationProvider) {
  if (!(await row(actor, provider))) throw notConnected(provider);
}

function decryptRow(r: IntegrationConnectionsTable): Connection {
  const accessToken = decrypt(r.accessToken);
  if (!accessToken) throw notConnected(r.provider, "connection can no longer be read (the encryption key changed)");
  return { ...r, accessToken, refreshToken: r.refreshToken ? decrypt(r.refreshToken) : null };
}

const refreshing = new Map<string, Promise<Connection>>();

/** New tokens from the refresh token, persisted; a refused refresh removes the dead connection (409). */
async function refreshConnection(settings: ProviderSettings, conn: Connection): Promise<Connection> {
  const pending = refreshing.get(conn.id);
  if (pending) return pending;
  const work = (async () => {
    if (!conn.refreshToken) {
      await db.deleteFrom("integrationConnections").where("id", "=", conn.id).execute();
      throw notConnected(conn.provider, "connection has expired");
    }
    let t: TokenSet;
    try {
      t = await OAUTH_CLIENTS[conn.provider].refresh(settings, conn.refreshToken);
    } catch (error) {
      if (error instanceof ProviderHttpError && error.status >= 400 && error.status < 500 && error.status !== 429) {
        await db.deleteFrom("integrationConnections").where("id", "=", conn.id).execute();
        throw notConnected(conn.provider, "connection has expired or was revoked");
      }
      throw error;
    }
    const next: Connection = { ...conn, accessToken: t.accessToken, refreshToken: t.refreshToken ?? conn.refreshToken, expiresAt: expiresAt(t) };
    await db
      .updateTable("integrationConnections")
      .set({
        accessToken: encrypt(next.accessToken),
        refreshToken: next.refreshToken ? encrypt(next.refreshToken) : null,
        expiresAt: next.expiresAt,
        ...(t.scopes ? { scopes: t.scopes } : {}),
        updatedAt: nowIso(),
      })
      .where("id", "=", conn.id)
      .execute();
    return next;
  })();
  refreshing.set(conn.id, work);
  try {
    return await work;
  } finally {
    refreshing.delete(conn.id);
  }
}

const SKEW_MS = 60_000;

/**
 * Runs `work` with the caller's connection: 409 INTEGRATION_NOT_CONNECTED
 * without one, the token refreshed first when it is about to expire, and
 * each request retried once after a refresh when the service answers 401.
 * Service failures leave as 502 PROVIDER_ERROR with the service's message.
 */
export async function withConnection<T>(
  actor: Actor,
  provider: IntegrationProvider,
  work: (call: Authorized, ctx: { settings: ProviderSettings; connection: Connection }) => Promise<T>,
): Promise<T> {
  const r = await row(actor, provider);
  if (!r) throw notConnected(provider);
  const settings = requireSettings(provider);
  let conn = decryptRow(r);
  try {
    if (conn.expiresAt && Date.parse(conn.expiresAt) - SKEW_MS <= Date.now()) conn = await refreshConnection(settings, conn);
    const call: Authorized = async (request) => {
      try {
        return await request(conn.accessToken);
      } catch (error) {
        if (!(error instanceof ProviderHttpError) || error.status !== 401) throw error;
        conn = await refreshConnection(settings, conn);
        try {
          return await request(conn.accessToken);
        } catch (again) {
          if (again instanceof ProviderHttpError && again.status === 401) {
            await db.deleteFrom("integrationConnections").where("id", "=", conn.id).execute();
            throw notConnected(provider, "connection was refused by the service");
          }
          throw again;
        }
      }
    };
    return await work(call, { settings, connection: conn });
  } catch (error) {
    if (error instanceof ProviderHttpError) throw providerError(error);
    throw error;
  }
}
