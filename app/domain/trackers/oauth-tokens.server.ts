import type { TrackerConnectionsTable } from "#db/tables/trackers";
import { db, isPrimary } from "~/db.server";
import { decrypt, encrypt } from "~/utils/crypto.server";
import { nowIso } from "~/utils/ids.server";
import { logger } from "~/utils/log.server";
import { AppError, PrimaryRequired } from "../errors";
import { ProviderHttpError, providerError } from "../integrations/http.server";
import type { TokenSet } from "../integrations/providers/types";
import { TRACKER_INFO, type TrackerService } from "./adapter";
import { TokenRefused, TRACKER_OAUTH } from "./oauth-clients.server";

/**
 * The access token of an OAuth tracker connection, renewed before use: when
 * it expires within a minute, the refresh token buys a new one (Jira's last
 * an hour and rotate the refresh token on every use), and both are saved
 * together, encrypted, in one transaction. A refresh the service refuses
 * (`invalid_grant`; GitHub says `bad_refresh_token`, Atlassian also
 * `unauthorized_client`) marks the connection "Needs reconnecting".
 * Called from the one place connections are loaded for a call
 * (connections.server.ts, loadConnection).
 */

const SKEW_MS = 60_000;
const REFUSED = new Set(["invalid_grant", "bad_refresh_token", "unauthorized_client"]);

/** The start of `lastError` on a connection whose refresh was refused. */
export const NEEDS_RECONNECT = "Needs reconnecting";

export const expiresAtOf = (t: Pick<TokenSet, "expiresIn">) => (t.expiresIn ? new Date(Date.now() + t.expiresIn * 1000).toISOString() : null);

const needsReconnect = (service: TrackerService) => {
  const name = TRACKER_INFO[service].name;
  return new AppError(
    "CONFLICT",
    409,
    `${name} no longer accepts this connection's sign-in (it was revoked or has expired). An owner or admin must connect ${name} again in Settings → Issue trackers.`,
  );
};

async function markNeedsReconnect(row: TrackerConnectionsTable) {
  const name = TRACKER_INFO[row.service].name;
  await db
    .updateTable("trackerConnections")
    .set({ lastError: `${NEEDS_RECONNECT}: ${name} refused to renew this connection's access. Connect ${name} again.`, updatedAt: nowIso() })
    .where("id", "=", row.id)
    .execute();
}

const current = (id: string) => db.selectFrom("trackerConnections").selectAll().where("id", "=", id).executeTakeFirst();

async function refresh(row: TrackerConnectionsTable): Promise<string> {
  const name = TRACKER_INFO[row.service].name;
  const client = TRACKER_OAUTH[row.service];
  const settings = client.settings();
  if (!settings) {
    throw new AppError(
      "CONFLICT",
      409,
      `${name} was connected with OAuth, but this server no longer has its OAuth client (${client.env.clientId}, ${client.env.clientSecret}); connect ${name} with a token instead`,
    );
  }
  const refreshToken = row.refreshTokenEncrypted ? decrypt(row.refreshTokenEncrypted) : null;
  if (!refreshToken) {
    await markNeedsReconnect(row);
    throw needsReconnect(row.service);
  }
  let t: TokenSet;
  try {
    t = await client.refresh(settings, refreshToken);
  } catch (error) {
    if (error instanceof TokenRefused && REFUSED.has(error.code)) {
      // Renewed meanwhile (the refresh token we held was already rotated)? Then use what was saved.
      const now = await current(row.id);
      const renewed = now && now.refreshTokenEncrypted !== row.refreshTokenEncrypted ? decrypt(now.tokenEncrypted) : null;
      if (renewed) return renewed;
      logger.warn(`[trackers] ${row.service} refresh refused`, { connectionId: row.id, error: error.code });
      await markNeedsReconnect(row);
      throw needsReconnect(row.service);
    }
    if (error instanceof TokenRefused) throw new AppError("PROVIDER_ERROR", 502, `${name} could not renew the connection's access: ${error.code}`);
    if (error instanceof ProviderHttpError) throw providerError(error);
    throw error;
  }
  const values = {
    tokenEncrypted: encrypt(t.accessToken),
    // A service that does not rotate sends no refresh token: the stored one stays valid.
    refreshTokenEncrypted: t.refreshToken ? encrypt(t.refreshToken) : row.refreshTokenEncrypted,
    tokenExpiresAt: expiresAtOf(t),
    updatedAt: nowIso(),
  };
  await db.transaction().execute(async (trx) => {
    // Only over the tokens we renewed: a reconnection that landed meanwhile is newer than ours.
    await trx
      .updateTable("trackerConnections")
      .set(values)
      .where("id", "=", row.id)
      .where((eb) =>
        row.refreshTokenEncrypted === null ? eb("refreshTokenEncrypted", "is", null) : eb("refreshTokenEncrypted", "=", row.refreshTokenEncrypted),
      )
      .execute();
  });
  return t.accessToken;
}

const inFlight = new Map<string, Promise<string>>();

/** `token` (the stored access token, decrypted), or a renewed one when it expires within a minute. */
export async function freshAccessToken(row: TrackerConnectionsTable, token: string): Promise<string> {
  if (row.authKind !== "oauth" || !row.tokenExpiresAt || Date.parse(row.tokenExpiresAt) - SKEW_MS > Date.now()) return token;
  // On a LiteFS replica the renewed tokens could not be saved (and a rotated refresh token works once): the primary renews.
  if (!isPrimary()) throw new PrimaryRequired(`Renewing the ${TRACKER_INFO[row.service].name} token`);
  // One refresh per connection at a time: a rotated refresh token works once.
  const pending = inFlight.get(row.id);
  if (pending) return pending;
  const work = refresh(row);
  inFlight.set(row.id, work);
  try {
    return await work;
  } finally {
    inFlight.delete(row.id);
  }
}
