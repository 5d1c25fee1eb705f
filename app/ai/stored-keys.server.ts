import type { AiProviderKeysTable } from "#db/schema";
import { db } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import type { ProviderId } from "./types";

/**
 * The reads and writes that serving a request needs from the stored provider
 * keys (table aiProviderKeys). Managing the keys (add, list, remove, test) is
 * app/domain/ai-keys/ai-keys.server.ts, a layer above: it imports app/ai/,
 * never the other way round (docs/code-tour.md).
 */

/** The stored keys that may serve this user in this organization (encrypted), for key resolution. */
export async function candidateKeys(userId: string, orgId: string) {
  const rows = await db
    .selectFrom("aiProviderKeys")
    .select(["id", "scope", "provider", "keyEncrypted"])
    .where((eb) => eb.or([eb.and([eb("scope", "=", "user"), eb("userId", "=", userId)]), eb.and([eb("scope", "=", "organization"), eb("orgId", "=", orgId)])]))
    .execute();
  return rows as { id: string; scope: AiProviderKeysTable["scope"]; provider: ProviderId; keyEncrypted: string }[];
}

/** Records use at most once a minute per key. */
export async function touchProviderKey(keyId: string, now = new Date()) {
  const cutoff = nowIso(new Date(now.getTime() - 60_000));
  await db
    .updateTable("aiProviderKeys")
    .set({ lastUsedAt: nowIso(now) })
    .where("id", "=", keyId)
    .where((eb) => eb.or([eb("lastUsedAt", "is", null), eb("lastUsedAt", "<", cutoff)]))
    .execute();
}
