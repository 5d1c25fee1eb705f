import { appUrl } from "~/config.server";
import { db, type Executor } from "~/db.server";
import { newId, nowIso, randomToken, sha256 } from "~/utils/ids.server";
import { AppError } from "../errors";
import type { PreferenceKey } from "./notifications.schema";
import { setPreferences } from "./preferences.server";

/** Unsubscribe links work for 60 days and once. */
export const UNSUBSCRIBE_TTL_MS = 60 * 24 * 60 * 60 * 1000;

/** Issues a single-use unsubscribe token for one category; returns the full link. */
export async function issueUnsubscribeLink(trx: Executor, userId: string, category: PreferenceKey, now = new Date()) {
  const raw = randomToken();
  await trx
    .insertInto("unsubscribeTokens")
    .values({
      id: newId(),
      userId,
      category,
      tokenHash: sha256(raw),
      expiresAt: nowIso(new Date(now.getTime() + UNSUBSCRIBE_TTL_MS)),
      usedAt: null,
      createdAt: nowIso(now),
    })
    .execute();
  return { token: raw, url: `${appUrl()}/unsubscribe?token=${encodeURIComponent(raw)}` };
}

const invalid = () => new AppError("INVALID_TOKEN", 401, "This unsubscribe link is invalid or has already been used");

async function usableToken(executor: Executor, raw: string) {
  const row = await executor.selectFrom("unsubscribeTokens").selectAll().where("tokenHash", "=", sha256(raw)).executeTakeFirst();
  if (!row || row.usedAt) throw invalid();
  if (row.expiresAt <= nowIso()) throw new AppError("TOKEN_EXPIRED", 410, "This unsubscribe link has expired; change your preferences in Settings instead");
  const user = await executor.selectFrom("users").select(["email"]).where("id", "=", row.userId).executeTakeFirst();
  if (!user) throw invalid();
  return { ...row, category: row.category as PreferenceKey, email: user.email };
}

/** What a link would do, without using it (the confirm page). */
export async function peekUnsubscribe(raw: string) {
  const row = await usableToken(db, raw);
  return { category: row.category, email: row.email };
}

/**
 * Turns the token's category (or the one chosen, e.g. emailNotifications for
 * all e-mail) off and consumes the token. No sign-in needed.
 */
export async function unsubscribe(raw: string, category?: PreferenceKey) {
  return db.transaction().execute(async (trx) => {
    const row = await usableToken(trx, raw);
    const used = await trx.updateTable("unsubscribeTokens").set({ usedAt: nowIso() }).where("id", "=", row.id).where("usedAt", "is", null).executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw invalid();
    const turnedOff = category ?? row.category;
    const preferences = await setPreferences(trx, row.userId, { [turnedOff]: false });
    return { category: turnedOff, preferences };
  });
}
