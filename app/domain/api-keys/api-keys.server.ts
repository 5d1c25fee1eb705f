import crypto from "node:crypto";
import type { ApiKey } from "#db/schema";
import { compiledQuery, db, type Slots } from "~/db.server";
import { newId, nowIso, sha256 } from "~/utils/ids.server";
import { StampedCache } from "~/utils/stamped-cache.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { writeAudit } from "../audit/audit.server";
import { assertWithinLimit, currentUsage } from "../billing/limits.server";
import { limitFor } from "../billing/plans";
import { AppError, forbidden, notFound, unauthorized, validationError } from "../errors";
import { isSuperadmin } from "../users/users.server";
import { API_KEY_PATTERN, type CreateApiKeyInput } from "./api-keys.schema";
import { actorScopes, type ApiKeyScope, parseStoredScopes, requireScope, withImpliedScopes } from "./scopes";

function publicKey(key: ApiKey & { createdByName?: string | null }) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    lastUsedAt: key.lastUsedAt,
    expiresAt: key.expiresAt,
    createdAt: key.createdAt,
    rateLimit: key.rateLimit,
    scopes: [...parseStoredScopes(key.scopes)],
    createdBy: { id: key.userId, name: key.createdByName ?? null },
  };
}
export type PublicApiKey = ReturnType<typeof publicKey>;

export async function listApiKeys(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "manage API keys");
  const rows = await db
    .selectFrom("apiKeys as k")
    .leftJoin("users as u", "u.id", "k.userId")
    .selectAll("k")
    .select("u.name as createdByName")
    .where("k.orgId", "=", actor.org.id)
    .where("k.revokedAt", "is", null)
    .orderBy("k.createdAt", "desc")
    .execute();
  return rows.map(publicKey);
}

/** How many keys the organization has and may have (-1: unlimited). */
export async function apiKeyQuota(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "manage API keys");
  return { used: await currentUsage(db, actor.org.id, "api_keys"), limit: limitFor(actor.org.plan, "api_keys") };
}

/** Whether the organization's plan lets a key have its own rate limit (`rateLimit`): Enterprise only. */
export const customRateLimitAllowed = (actor: Pick<Actor, "org">) => actor.org.plan === "enterprise";

/** Creates a key; the raw `key` is returned here once and never again. */
export async function createApiKey(actor: Actor, input: CreateApiKeyInput) {
  requireRole(actor, ADMIN_ROLES, "manage API keys");
  // Also checked at the API boundary (contract scope); here for every caller.
  requireScope(actor, "admin");
  const own = withImpliedScopes(actorScopes(actor));
  const scopes = input.scopes ?? [...own];
  const broader = scopes.filter((s) => !own.includes(s));
  if (broader.length) throw forbidden(`This API key cannot create a key with the ${broader.join(", ")} scope`);
  if (input.expiresAt && input.expiresAt <= nowIso()) {
    throw validationError("expiresAt", "Expiry must be in the future");
  }
  if (input.rateLimit !== undefined && !customRateLimitAllowed(actor)) {
    throw new AppError("PLAN_UPGRADE_REQUIRED", 403, "A custom per-key rate limit needs the Enterprise plan", {
      extra: { requiredPlan: "enterprise" },
    });
  }
  const key = `svc_${crypto.randomBytes(20).toString("hex")}`;
  const row: ApiKey = {
    id: newId(),
    orgId: actor.org.id,
    userId: actor.user.id,
    name: input.name,
    prefix: key.slice(0, 10),
    keyHash: sha256(key),
    rateLimit: input.rateLimit ?? null,
    scopes: JSON.stringify(scopes),
    expiresAt: input.expiresAt,
    lastUsedAt: null,
    revokedAt: null,
    createdAt: nowIso(),
  };
  await db.transaction().execute(async (trx) => {
    await assertWithinLimit(trx, actor.org, "api_keys");
    await trx.insertInto("apiKeys").values(row).execute();
    await writeAudit(trx, {
      orgId: actor.org.id,
      actorId: actor.user.id,
      actorEmail: actor.user.email,
      action: "api_key.created",
      category: "security",
      targetType: "api_key",
      targetId: row.id,
      ip: actor.ip,
      userAgent: actor.userAgent,
      metadata: { name: row.name, prefix: row.prefix, expiresAt: row.expiresAt, scopes },
    });
  });
  return {
    id: row.id,
    name: row.name,
    key,
    prefix: row.prefix,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    rateLimit: row.rateLimit,
    scopes,
  };
}

export async function revokeApiKey(actor: Actor, keyId: string) {
  requireRole(actor, ADMIN_ROLES, "manage API keys");
  requireScope(actor, "admin");
  await db.transaction().execute(async (trx) => {
    const key = await trx
      .selectFrom("apiKeys")
      .selectAll()
      .where("id", "=", keyId)
      .where("orgId", "=", actor.org.id)
      .where("revokedAt", "is", null)
      .executeTakeFirst();
    if (!key) throw notFound("API key");
    await trx.updateTable("apiKeys").set({ revokedAt: nowIso() }).where("id", "=", keyId).execute();
    await writeAudit(trx, {
      orgId: actor.org.id,
      actorId: actor.user.id,
      actorEmail: actor.user.email,
      action: "api_key.revoked",
      category: "security",
      severity: "warning",
      targetType: "api_key",
      targetId: keyId,
      ip: actor.ip,
      userAgent: actor.userAgent,
      metadata: { name: key.name, prefix: key.prefix },
    });
  });
}

/**
 * Resolves a raw API key to the actor it stands for: its creator, in the
 * creator's organization, with the creator's current role, narrowed by the
 * key's scopes.
 */
/** The key, its owner and their membership: one compiled query on the hot path of every API-key request. */
const keyWithOwner = compiledQuery((p: Slots<"keyHash">) =>
  db
    .selectFrom("apiKeys as k")
    .innerJoin("users as u", "u.id", "k.userId")
    .leftJoin("memberships as m", (join) => join.onRef("m.userId", "=", "k.userId").onRef("m.orgId", "=", "k.orgId"))
    .leftJoin("organizations as o", "o.id", "m.orgId")
    .select([
      "k.id",
      "k.orgId",
      "k.rateLimit",
      "k.scopes",
      "k.expiresAt",
      "k.lastUsedAt",
      "k.revokedAt",
      "u.id as userId",
      "u.name as userName",
      "u.email as userEmail",
      "u.emailVerifiedAt",
      "u.timezone",
      "m.role",
      "o.name as orgName",
      "o.plan",
    ])
    .where("k.keyHash", "=", p.keyHash),
);

/**
 * The row of each key in use, until the next write to the database (a
 * revocation, a role change, a touch of lastUsedAt...): every API request
 * starts here, and the answer rarely changes. Expiry is checked on every use.
 */
type KeyRow = Omit<Awaited<ReturnType<typeof keyWithOwner>>["rows"][number], "scopes"> & { scopes: readonly ApiKeyScope[] };
/** Scopes are parsed once per cached row (a frozen array, shared by the actors built from it). */
const keyRows = new StampedCache<KeyRow | undefined>(1000);

export async function actorFromApiKey(raw: string, meta: { ip: string | null; userAgent: string | null; requestId?: string }) {
  if (!API_KEY_PATTERN.test(raw)) throw unauthorized("Malformed API key: expected svc_ followed by 40 hex characters");
  const keyHash = sha256(raw);
  const row = await keyRows.get(keyHash, async () => {
    const found = (await keyWithOwner({ keyHash })).rows[0];
    return found && { ...found, scopes: parseStoredScopes(found.scopes) };
  });
  if (!row || row.revokedAt) throw unauthorized("This API key is invalid or has been revoked");
  if (row.expiresAt && row.expiresAt <= nowIso()) throw unauthorized("This API key has expired");
  if (!row.role || !row.plan) throw unauthorized("The owner of this API key no longer belongs to the organization");
  const actor: Actor = {
    user: { id: row.userId, email: row.userEmail, name: row.userName, emailVerified: row.emailVerifiedAt !== null, timezone: row.timezone },
    org: { id: row.orgId, name: row.orgName ?? "", plan: row.plan },
    role: row.role,
    via: "apiKey",
    isSuperadmin: isSuperadmin({ email: row.userEmail, emailVerifiedAt: row.emailVerifiedAt }),
    apiKeyId: row.id,
    apiKeyScopes: row.scopes,
    ip: meta.ip,
    userAgent: meta.userAgent,
    requestId: meta.requestId,
  };
  return { actor, key: { id: row.id, rateLimit: row.rateLimit, lastUsedAt: row.lastUsedAt } };
}

/** Records use at most once a minute, so reads stay cheap. */
export async function touchApiKey(key: Pick<ApiKey, "id" | "lastUsedAt">, now = new Date()) {
  if (key.lastUsedAt && now.getTime() - Date.parse(key.lastUsedAt) < 60_000) return;
  await db
    .updateTable("apiKeys")
    .set({ lastUsedAt: nowIso(now) })
    .where("id", "=", key.id)
    .execute();
}
