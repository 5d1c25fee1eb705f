import type { TokenPurpose } from "#db/schema";
import type { Executor } from "~/db.server";
import { newId, nowIso, randomToken, sha256 } from "~/utils/ids.server";
import { AppError } from "../errors";

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  password_reset: 60 * 60 * 1000, // 1 hour
  email_verification: 48 * 60 * 60 * 1000, // 48 hours
};

/**
 * Issues a single-use token: the raw value goes to the user, only its SHA-256
 * is stored. Earlier unused tokens of the same purpose are retired.
 */
export async function issueToken(db: Executor, userId: string, purpose: TokenPurpose) {
  const raw = randomToken();
  const now = new Date();
  await db
    .updateTable("oneTimeTokens")
    .set({ usedAt: nowIso(now) })
    .where("userId", "=", userId)
    .where("purpose", "=", purpose)
    .where("usedAt", "is", null)
    .execute();
  await db
    .insertInto("oneTimeTokens")
    .values({
      id: newId(),
      userId,
      purpose,
      tokenHash: sha256(raw),
      expiresAt: nowIso(new Date(now.getTime() + TOKEN_TTL_MS[purpose])),
      usedAt: null,
      createdAt: nowIso(now),
    })
    .execute();
  return raw;
}

/** Marks a token used and returns its user id; 401 INVALID_TOKEN or 410 TOKEN_EXPIRED otherwise. */
export async function consumeToken(db: Executor, raw: string, purpose: TokenPurpose) {
  const row = await db.selectFrom("oneTimeTokens").selectAll().where("tokenHash", "=", sha256(raw)).where("purpose", "=", purpose).executeTakeFirst();
  if (!row || row.usedAt) {
    throw new AppError("INVALID_TOKEN", 401, "This link is invalid or has already been used");
  }
  if (row.expiresAt <= nowIso()) {
    throw new AppError("TOKEN_EXPIRED", 410, "This link has expired; request a new one");
  }
  const used = await db.updateTable("oneTimeTokens").set({ usedAt: nowIso() }).where("id", "=", row.id).where("usedAt", "is", null).executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) {
    throw new AppError("INVALID_TOKEN", 401, "This link is invalid or has already been used");
  }
  return row.userId;
}
