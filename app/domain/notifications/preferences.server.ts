import { db, type Executor } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { DEFAULT_PREFERENCES, PREFERENCE_KEYS, type PreferenceKey, type Preferences } from "./notifications.schema";

type Row = { userId: string } & Record<PreferenceKey, number>;

const fromRow = (row: Row | undefined): Preferences =>
  row ? (Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, Boolean(row[k])])) as Preferences) : { ...DEFAULT_PREFERENCES };

/** Preferences of several users (defaults for those without a row). */
export async function preferencesFor(executor: Executor, userIds: string[]) {
  const out = new Map<string, Preferences>();
  if (!userIds.length) return out;
  const rows = await executor
    .selectFrom("notificationPreferences")
    .select(["userId", ...PREFERENCE_KEYS])
    .where("userId", "in", userIds)
    .execute();
  const byUser = new Map(rows.map((r) => [r.userId, r as Row]));
  for (const id of userIds) out.set(id, fromRow(byUser.get(id)));
  return out;
}

export async function userPreferences(executor: Executor, userId: string) {
  return (await preferencesFor(executor, [userId])).get(userId)!;
}

/** Writes a subset of the booleans (insert with defaults, then update). */
export async function setPreferences(executor: Executor, userId: string, changes: Partial<Preferences>) {
  const current = await userPreferences(executor, userId);
  const next = { ...current, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) } as Preferences;
  const values = Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, next[k] ? 1 : 0])) as Record<PreferenceKey, number>;
  await executor
    .insertInto("notificationPreferences")
    .values({ userId, ...values, digestSentAt: null, updatedAt: nowIso() })
    .onConflict((oc) => oc.column("userId").doUpdateSet({ ...values, updatedAt: nowIso() }))
    .execute();
  return next;
}

export const getMyPreferences = (actor: Actor) => userPreferences(db, actor.user.id);

export const updateMyPreferences = (actor: Actor, changes: Partial<Preferences>) =>
  db.transaction().execute((trx) => setPreferences(trx, actor.user.id, changes));
