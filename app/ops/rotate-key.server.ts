import crypto from "node:crypto";
import { sql } from "kysely";
import type { DB } from "~/db.server";
import { decryptWithKey, encryptWithKey } from "~/utils/crypto.server";

/**
 * Re-encrypts every secret stored under ENCRYPTION_KEY with a new key, in one
 * transaction: either every value is re-encrypted or none is. Values that do
 * not decrypt with the current key stop the rotation (unless `force`, which
 * leaves them as they are and reports them). Behind `npm run secrets:rotate`
 * (scripts/rotate-encryption-key.ts).
 *
 * Every column written with `encrypt(...)` is listed here; a new encrypted
 * column must be added to ENCRYPTED_COLUMNS. (The flash cookie is encrypted
 * too but not stored: old ones simply stop decrypting.)
 */
export const ENCRYPTED_COLUMNS = [
  { table: "aiProviderKeys", key: "id", columns: ["keyEncrypted"] },
  { table: "webhooks", key: "id", columns: ["secretEncrypted"] },
  { table: "projectShares", key: "tokenHash", columns: ["tokenEncrypted"] },
  { table: "scheduledExports", key: "id", columns: ["webhookSecret"] },
  { table: "integrationConnections", key: "id", columns: ["accessToken", "refreshToken"] },
  { table: "oauthStates", key: "stateHash", columns: ["codeVerifier"] },
  { table: "slackConnections", key: "orgId", columns: ["accessToken"] },
  { table: "trackerConnections", key: "id", columns: ["tokenEncrypted", "refreshTokenEncrypted", "webhookSecretEncrypted"] },
  { table: "invitations", key: "id", columns: ["tokenEncrypted"] },
  { table: "stakeholderViews", key: "id", columns: ["reviewTokenEncrypted"] },
] as const;

export type EncryptedTable = (typeof ENCRYPTED_COLUMNS)[number]["table"];

export interface RotationOptions {
  currentKey: string;
  /** 64 hexadecimal characters; generated when absent. */
  newKey?: string;
  /** Leave values that do not decrypt with the current key as they are, instead of refusing. */
  force?: boolean;
  /** Called inside the transaction after each table is rewritten (progress output; tests inject failures here). */
  onTable?: (table: EncryptedTable, values: number) => void | Promise<void>;
}

export interface RotationResult {
  newKey: string;
  /** Values re-encrypted, per table. */
  rotated: Record<EncryptedTable, number>;
  /** Values left as they were (only with `force`). */
  skipped: { table: EncryptedTable; column: string; key: string }[];
}

export class RotationRefused extends Error {
  constructor(public unreadable: RotationResult["skipped"]) {
    const list = unreadable
      .slice(0, 10)
      .map((u) => `${u.table}.${u.column} (${u.key})`)
      .join(", ");
    super(
      `${unreadable.length} stored value(s) do not decrypt with the current key: ${list}${unreadable.length > 10 ? ", …" : ""}. ` +
        "Nothing was changed. Check ENCRYPTION_KEY, or run with --force to rotate the rest and leave these as they are.",
    );
    this.name = "RotationRefused";
  }
}

const HEX_KEY = /^[0-9a-f]{64}$/i;
export const generateKey = () => crypto.randomBytes(32).toString("hex");

export async function rotateEncryptionKey(db: DB, options: RotationOptions): Promise<RotationResult> {
  const { currentKey, force = false } = options;
  const newKey = options.newKey ?? generateKey();
  if (!HEX_KEY.test(currentKey)) throw new Error("The current key must be 64 hexadecimal characters");
  if (!HEX_KEY.test(newKey)) throw new Error("The new key must be 64 hexadecimal characters");
  if (newKey.toLowerCase() === currentKey.toLowerCase()) throw new Error("The new key is the current key");

  return db.transaction().execute(async (trx) => {
    const rotated = {} as Record<EncryptedTable, number>;
    const skipped: RotationResult["skipped"] = [];
    // Read and decrypt everything first, so a refusal changes nothing.
    const plans: { table: EncryptedTable; key: string; updates: { id: string; values: Record<string, string> }[] }[] = [];
    for (const { table, key, columns } of ENCRYPTED_COLUMNS) {
      const { rows } = await sql<Record<string, string | null>>`SELECT ${sql.ref(key)} AS "rowKey", ${sql.join(
        columns.map((c) => sql.ref(c)),
      )} FROM ${sql.table(table)}`.execute(trx);
      const updates: (typeof plans)[number]["updates"] = [];
      for (const row of rows) {
        const values: Record<string, string> = {};
        for (const column of columns) {
          const stored = row[column];
          if (stored === null || stored === undefined) continue;
          const plain = decryptWithKey(stored, currentKey);
          if (plain === null) skipped.push({ table, column, key: String(row.rowKey) });
          else values[column] = encryptWithKey(plain, newKey);
        }
        if (Object.keys(values).length) updates.push({ id: String(row.rowKey), values });
      }
      plans.push({ table, key, updates });
    }
    if (skipped.length && !force) throw new RotationRefused(skipped);

    for (const { table, key, updates } of plans) {
      let count = 0;
      for (const { id, values } of updates) {
        const sets = Object.entries(values).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
        await sql`UPDATE ${sql.table(table)} SET ${sql.join(sets)} WHERE ${sql.ref(key)} = ${id}`.execute(trx);
        count += Object.keys(values).length;
      }
      rotated[table] = count;
      await options.onTable?.(table, count);
    }
    return { newKey, rotated, skipped };
  });
}
