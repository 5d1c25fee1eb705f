import type { TrackerConnectionsTable } from "#db/tables/trackers";
import { appUrl } from "~/config.server";
import { db } from "~/db.server";
import { decrypt, encrypt } from "~/utils/crypto.server";
import { newId, nowIso, randomToken } from "~/utils/ids.server";
import { type Actor, isAdmin, requireRole, ADMIN_ROLES, requireWriter } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { AppError, notFound } from "../errors";
import { TRACKER_INFO, type TrackerAdapter, type TrackerCredentials, TrackerError, type TrackerService } from "./adapter";
import { parseAllowedTargets, targetAllowed } from "./allowed-targets";
import { TRACKER_ADAPTERS, availableServices } from "./adapters.server";
import { oauthServices } from "./oauth-clients.server";
import { freshAccessToken, NEEDS_RECONNECT } from "./oauth-tokens.server";
import type { ConnectTrackerInput, WebhookSecretInput } from "./trackers.schema";

/**
 * An organization's tracker connections: a token saved by an owner or admin
 * (checked with the service first), or one from connecting with OAuth
 * (oauth.server.ts), encrypted at rest with the webhook
 * secret the service signs its events with. Everyone in the organization
 * sees which trackers are connected; only admins see the webhook secret.
 */

export const webhookUrl = (c: { id: string; service: TrackerService }) => `${appUrl()}/api/webhooks/trackers/${c.service}/${c.id}`;

export function presentConnection(r: TrackerConnectionsTable & { createdByName: string | null }, admin: boolean) {
  return {
    id: r.id,
    service: r.service,
    serviceName: TRACKER_INFO[r.service].name,
    targetKind: TRACKER_INFO[r.service].target,
    authKind: r.authKind,
    accountLabel: r.accountLabel,
    lastError: r.lastError,
    /** The service refused to renew an OAuth connection: an admin must connect it again. */
    needsReconnect: r.lastError?.startsWith(NEEDS_RECONNECT) ?? false,
    createdAt: r.createdAt,
    createdBy: r.createdById ? { id: r.createdById, name: r.createdByName } : null,
    webhookUrl: webhookUrl(r),
    /** For the admin who pastes it into the service's webhook settings; null for everyone else. */
    webhookSecret: admin ? decrypt(r.webhookSecretEncrypted) : null,
    /** Where stories may be sent (allowed-targets.ts); null: any target the token reaches. */
    allowedTargets: parseAllowedTargets(r.allowedTargets),
  };
}
export type TrackerConnection = ReturnType<typeof presentConnection>;

export const connectionRows = (orgId: string) =>
  db
    .selectFrom("trackerConnections as c")
    .leftJoin("users as u", "u.id", "c.createdById")
    .selectAll("c")
    .select("u.name as createdByName")
    .where("c.orgId", "=", orgId)
    .orderBy("c.createdAt")
    .orderBy("c.id");

/**
 * GET /api/integrations/trackers. `services`: what an admin may connect on
 * this server; `oauth`: those of them it has an OAuth client for (both empty for members).
 */
export async function listTrackerConnections(actor: Actor) {
  const admin = isAdmin(actor);
  const found = await connectionRows(actor.org.id).execute();
  const services = admin ? availableServices() : [];
  const withOAuth = new Set(oauthServices());
  return { connections: found.map((r) => presentConnection(r, admin)), services, oauth: services.filter((s) => withOAuth.has(s)) };
}

/**
 * Whether tracker sync is shown to `actor`: to owners and admins always (they
 * connect trackers), to everyone else only once one is connected, so members
 * never meet an integration nobody set up (docs/trackers.md).
 */
export async function trackersShown(actor: Actor) {
  if (isAdmin(actor)) return true;
  const row = await db.selectFrom("trackerConnections").select("id").where("orgId", "=", actor.org.id).limit(1).executeTakeFirst();
  return Boolean(row);
}

export function adapterFor(service: TrackerService): TrackerAdapter {
  const adapter = TRACKER_ADAPTERS[service];
  if (!adapter) throw new AppError("CONFLICT", 409, `${TRACKER_INFO[service].name} cannot be connected on this server yet`);
  return adapter;
}

/** POST /api/integrations/trackers: checks the token with the service, then stores it encrypted. */
export async function connectTracker(actor: Actor, input: ConnectTrackerInput) {
  requireRole(actor, ADMIN_ROLES, "connect issue trackers");
  const adapter = adapterFor(input.service);
  const prepared = adapter.prepareSettings?.(input.settings ?? {});
  if (prepared?.errors.length) throw new AppError("VALIDATION_ERROR", 400, prepared.errors[0]!.message, { details: prepared.errors });
  const settings = prepared?.settings ?? input.settings ?? {};
  let accountLabel: string;
  try {
    ({ accountLabel } = await adapter.validate({ token: input.token, authKind: "token", settings }));
  } catch (error) {
    throw asAppError(error, input.service, "token");
  }
  const now = nowIso();
  const row = {
    id: newId(),
    orgId: actor.org.id,
    service: input.service,
    authKind: "token" as const,
    tokenEncrypted: encrypt(input.token),
    refreshTokenEncrypted: null,
    tokenExpiresAt: null,
    accountLabel: accountLabel.slice(0, 200),
    settings: JSON.stringify(settings),
    webhookSecretEncrypted: encrypt(randomToken(24)),
    lastError: null,
    // Any target the token reaches until an owner or admin chooses (allowed-targets.ts).
    allowedTargets: null,
    createdById: actor.user.id,
    createdAt: now,
    updatedAt: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("trackerConnections").values(row).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "tracker.connected",
      category: "settings",
      targetType: "tracker_connection",
      targetId: row.id,
      metadata: { service: row.service, accountLabel: row.accountLabel },
    });
  });
  return { connection: presentConnection({ ...row, createdByName: actor.user.name }, true) };
}

/** POST /api/integrations/trackers/{id}/disconnect (as the other integrations disconnect): forgets the token. Linked issues stay listed, without further updates. */
export async function disconnectTracker(actor: Actor, id: string) {
  requireRole(actor, ADMIN_ROLES, "disconnect issue trackers");
  await db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom("trackerConnections").where("id", "=", id).where("orgId", "=", actor.org.id).returning(["service"]).executeTakeFirst();
    if (!gone) throw notFound("Tracker connection");
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "tracker.disconnected",
      category: "settings",
      targetType: "tracker_connection",
      targetId: id,
      metadata: { service: gone.service },
    });
  });
  return { success: true as const };
}

/**
 * POST /api/integrations/trackers/{id}/webhook-secret: replaces the secret
 * webhooks must be signed with by one the service generated (Linear's webhook
 * settings make their own); stored encrypted. Owners and admins.
 */
export async function setTrackerWebhookSecret(actor: Actor, id: string, input: WebhookSecretInput) {
  requireRole(actor, ADMIN_ROLES, "change a tracker's webhook secret");
  const connection = await updateConnection(actor, id, { webhookSecretEncrypted: encrypt(input.secret) }, "tracker.webhook_secret_set");
  return { connection };
}

/**
 * Changes settings of a connection of the caller's organization (404 for any
 * other) and records `action` in the audit log, in one transaction; the
 * connection as an admin sees it after.
 */
export async function updateConnection(
  actor: Actor,
  id: string,
  changes: Partial<Pick<TrackerConnectionsTable, "webhookSecretEncrypted" | "allowedTargets">>,
  action: "tracker.webhook_secret_set" | "tracker.allowed_targets_set",
  metadata: Record<string, unknown> = {},
) {
  const row = await connectionRows(actor.org.id).where("c.id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Tracker connection");
  const updated = { ...row, ...changes, updatedAt: nowIso() };
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("trackerConnections")
      .set({ ...changes, updatedAt: updated.updatedAt })
      .where("id", "=", id)
      .where("orgId", "=", actor.org.id)
      .execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action,
      category: "settings",
      targetType: "tracker_connection",
      targetId: id,
      metadata: { service: row.service, ...metadata },
    });
  });
  return presentConnection(updated, true);
}

/**
 * The connection of the caller's organization with its decrypted credentials
 * (404 for any other). An OAuth access token about to expire is renewed here
 * first (oauth-tokens.server.ts): every call to a service loads its connection here.
 */
export async function loadConnection(actor: Actor, id: string, options: { renew?: boolean } = {}) {
  const r = await db.selectFrom("trackerConnections").selectAll().where("id", "=", id).where("orgId", "=", actor.org.id).executeTakeFirst();
  if (!r) throw notFound("Tracker connection");
  const stored = decrypt(r.tokenEncrypted);
  if (!stored)
    throw new AppError("CONFLICT", 409, `The ${TRACKER_INFO[r.service].name} token can no longer be read (the encryption key changed): connect it again`);
  // A preview calls no service: it needs no renewal (and so works on a LiteFS replica).
  const token = options.renew === false ? stored : await freshAccessToken(r, stored);
  const credentials: TrackerCredentials = { token, authKind: r.authKind, settings: JSON.parse(r.settings) as Record<string, string> };
  return { row: r, adapter: adapterFor(r.service), credentials };
}

/** GET /api/integrations/trackers/{id}/targets: repositories, teams or projects issues can be created in. */
export async function trackerTargets(actor: Actor, id: string) {
  requireWriter(actor, "Viewers cannot send stories to a tracker");
  const { row, listed } = await listedTargets(actor, id);
  const allowed = parseAllowedTargets(row.allowedTargets);
  return { targets: listed.map((t) => ({ ...t, allowed: targetAllowed(allowed, t.id) })) };
}

/** The targets the service lists for a connection now; the outcome is noted on the connection (its settings page shows the last failure). */
export async function listedTargets(actor: Actor, id: string) {
  const { row, adapter, credentials } = await loadConnection(actor, id);
  try {
    const listed = await adapter.listTargets(credentials);
    await noteResult(row.id, null);
    return { row, listed };
  } catch (error) {
    const appError = asAppError(error, row.service);
    await noteResult(row.id, appError.message);
    throw appError;
  }
}

/** Remembers the last failure of a connection (shown on the settings page), or clears it. */
export async function noteResult(id: string, error: string | null) {
  await db.updateTable("trackerConnections").set({ lastError: error, updatedAt: nowIso() }).where("id", "=", id).execute();
}

/** A service failure as the API answers it: a refused token next to the token field, rate limits with Retry-After. */
export function asAppError(error: unknown, service: TrackerService, field?: string): AppError {
  if (!(error instanceof TrackerError))
    return error instanceof AppError ? error : new AppError("PROVIDER_ERROR", 502, `${TRACKER_INFO[service].name} could not be reached`);
  if (error.kind === "auth" && field) return new AppError("VALIDATION_ERROR", 400, error.message, { details: [{ path: field, message: error.message }] });
  if (error.kind === "rate_limited") {
    const wait = error.retryAfterSeconds ?? 60;
    return new AppError("PROVIDER_ERROR", 502, rateLimitMessage(service, wait), { headers: { "Retry-After": String(wait) }, extra: { retryAfter: wait } });
  }
  return new AppError("PROVIDER_ERROR", 502, error.message);
}

export const rateLimitMessage = (service: TrackerService, seconds: number) => `${TRACKER_INFO[service].name} is rate limiting: try again in ${seconds} s`;
