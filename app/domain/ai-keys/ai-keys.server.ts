import type { Selectable } from "kysely";
import type { AiProviderKeysTable } from "#db/schema";
import { db } from "~/db.server";
import { checkConnection } from "~/ai/connection.server";
import { providerCredentials } from "~/ai/credentials.server";
import { PROVIDER_IDS } from "~/ai/types";
import { decrypt, encrypt } from "~/utils/crypto.server";
import { newId, nowIso } from "~/utils/ids.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { writeAudit } from "../audit/audit.server";
import { AppError, notFound } from "../errors";
import { queueOrgEmbeddings } from "../search/embeddings.server";
import type { AddProviderKeyInput } from "./ai-keys.schema";

/**
 * AI provider keys: personal (BYOK, per user, used wherever the user works)
 * and organization keys (set by owners and admins, used by every member).
 * One key per provider and scope: adding a key for a provider replaces the
 * previous one. Keys are AES-256-GCM encrypted at rest and never returned;
 * lists show a masked form. With `verify` the provider is asked first
 * (app/ai/connection.server.ts) and a key it rejects is not saved.
 */

type KeyRow = Selectable<AiProviderKeysTable>;
type Scope = AiProviderKeysTable["scope"];

/** "sk-…a1b2": enough to recognise a key, never enough to use it (short keys show only their last 2 characters). */
export function maskKey(key: string) {
  if (key.length < 20) return `…${key.slice(-2)}`;
  return `${key.slice(0, 3)}…${key.slice(-4)}`;
}

function present(row: KeyRow) {
  return {
    id: row.id,
    provider: row.provider,
    name: row.name,
    /** The masked key (the spec's `key` field in lists). */
    key: row.keyHint,
    maskedKey: row.keyHint,
    scope: row.scope,
    lastUsedAt: row.lastUsedAt,
    createdAt: row.createdAt,
  };
}
export type ProviderKeyOut = ReturnType<typeof present>;

const byProvider = (a: KeyRow, b: KeyRow) => PROVIDER_IDS.indexOf(a.provider) - PROVIDER_IDS.indexOf(b.provider);

function scopeQuery(scope: Scope, ownerId: string) {
  const q = db.selectFrom("aiProviderKeys").selectAll().where("scope", "=", scope);
  return scope === "user" ? q.where("userId", "=", ownerId) : q.where("orgId", "=", ownerId);
}

/** Tests a key before it is stored: one the provider rejects is a validation error on `key`; anything else is reported. */
async function verifyKey(actor: Actor, input: AddProviderKeyInput) {
  const connection = await checkConnection(providerCredentials(input.provider, input.key), { requestId: actor.requestId, source: "new key" });
  if (!connection.ok && connection.reason === "unauthorized") {
    throw new AppError("VALIDATION_ERROR", 400, connection.message, {
      details: [{ path: "key", message: connection.message }],
      extra: { connection },
    });
  }
  return connection;
}

async function addKey(actor: Actor, scope: Scope, input: AddProviderKeyInput) {
  const connection = input.verify ? await verifyKey(actor, input) : undefined;
  const ownerId = scope === "user" ? actor.user.id : actor.org.id;
  const row: KeyRow = {
    id: newId(),
    scope,
    userId: scope === "user" ? ownerId : null,
    orgId: scope === "organization" ? ownerId : null,
    provider: input.provider,
    name: input.name ?? null,
    keyEncrypted: encrypt(input.key),
    keyHint: maskKey(input.key),
    createdById: actor.user.id,
    lastUsedAt: null,
    createdAt: nowIso(),
  };
  await db.transaction().execute(async (trx) => {
    const owner = scope === "user" ? ("userId" as const) : ("orgId" as const);
    const replaced = await trx
      .deleteFrom("aiProviderKeys")
      .where("scope", "=", scope)
      .where(owner, "=", ownerId)
      .where("provider", "=", input.provider)
      .executeTakeFirst();
    await trx.insertInto("aiProviderKeys").values(row).execute();
    // Personal keys are the user's own business; organization keys are audited.
    if (scope === "organization") {
      await writeAudit(trx, {
        orgId: actor.org.id,
        actorId: actor.user.id,
        actorEmail: actor.user.email,
        action: "ai_key.organization_added",
        category: "security",
        targetType: "ai_provider_key",
        targetId: row.id,
        ip: actor.ip,
        userAgent: actor.userAgent,
        metadata: { provider: row.provider, name: row.name, key: row.keyHint, replaced: Number(replaced.numDeletedRows) > 0 },
      });
    }
  });
  return { id: row.id, provider: row.provider, name: row.name, createdAt: row.createdAt, ...(connection ? { connection } : {}) };
}

async function deleteKey(actor: Actor, scope: Scope, keyId: string) {
  const ownerId = scope === "user" ? actor.user.id : actor.org.id;
  await db.transaction().execute(async (trx) => {
    const owner = scope === "user" ? ("userId" as const) : ("orgId" as const);
    const row = await trx
      .selectFrom("aiProviderKeys")
      .select(["id", "provider", "keyHint"])
      .where("id", "=", keyId)
      .where("scope", "=", scope)
      .where(owner, "=", ownerId)
      .executeTakeFirst();
    if (!row) throw notFound("AI provider key");
    await trx.deleteFrom("aiProviderKeys").where("id", "=", row.id).execute();
    if (scope === "organization") {
      await writeAudit(trx, {
        orgId: actor.org.id,
        actorId: actor.user.id,
        actorEmail: actor.user.email,
        action: "ai_key.organization_deleted",
        category: "security",
        severity: "warning",
        targetType: "ai_provider_key",
        targetId: row.id,
        ip: actor.ip,
        userAgent: actor.userAgent,
        metadata: { provider: row.provider, key: row.keyHint },
      });
    }
  });
}

export async function listPersonalKeys(actor: Actor) {
  const rows = await scopeQuery("user", actor.user.id).execute();
  return rows.sort(byProvider).map(present);
}

export const addPersonalKey = (actor: Actor, input: AddProviderKeyInput) => addKey(actor, "user", input);
export const deletePersonalKey = (actor: Actor, keyId: string) => deleteKey(actor, "user", keyId);

export async function listOrgKeys(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "manage the organization's AI keys");
  const rows = await scopeQuery("organization", actor.org.id).execute();
  return rows.sort(byProvider).map(present);
}

export async function addOrgKey(actor: Actor, input: AddProviderKeyInput) {
  requireRole(actor, ADMIN_ROLES, "manage the organization's AI keys");
  const key = await addKey(actor, "organization", input);
  // A key that can embed builds the organization's semantic search index.
  if (input.provider !== "provider_b") await queueOrgEmbeddings(actor.org.id);
  return key;
}

export function deleteOrgKey(actor: Actor, keyId: string) {
  requireRole(actor, ADMIN_ROLES, "manage the organization's AI keys");
  return deleteKey(actor, "organization", keyId);
}

/**
 * One stored key of the caller (scope `user`) or of the caller's organization,
 * decrypted, for a connection test. Another user's or organization's: 404.
 * `apiKey` is null when it can no longer be decrypted (the encryption key changed).
 */
export async function storedKey(actor: Actor, scope: Scope, keyId: string) {
  const row = await scopeQuery(scope, scope === "user" ? actor.user.id : actor.org.id)
    .where("id", "=", keyId)
    .executeTakeFirst();
  if (!row) throw notFound("AI provider key");
  return { id: row.id, provider: row.provider, apiKey: decrypt(row.keyEncrypted) };
}
