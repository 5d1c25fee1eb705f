import type { UserProfilesTable } from "#db/schema";
import { sql } from "kysely";
import { db, type Executor } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import type { TimezoneInput, UpdateProfileInput } from "./users.schema";

/** The profile row of a user; defaults when they never wrote one. */
export async function profileRow(executor: Executor, userId: string): Promise<UserProfilesTable> {
  const row = await executor.selectFrom("userProfiles").selectAll().where("userId", "=", userId).executeTakeFirst();
  if (row) return row;
  const now = nowIso();
  return {
    userId,
    jobTitle: null,
    bio: null,
    avatarUrl: null,
    preferredStyle: null,
    onboardingPreferences: "{}",
    onboardingCompletedAt: null,
    lastActiveAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Inserts or updates the user's profile row with `changes`. */
export async function upsertProfile(executor: Executor, userId: string, changes: Partial<Omit<UserProfilesTable, "userId" | "createdAt">>) {
  const now = nowIso();
  const row = { ...(await profileRow(executor, userId)), ...changes, updatedAt: now };
  await executor
    .insertInto("userProfiles")
    .values(row)
    .onConflict((oc) => oc.column("userId").doUpdateSet({ ...changes, updatedAt: now }))
    .execute();
  return row;
}

export function parsePreferences(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

export async function getProfile(actor: Actor, executor: Executor = db) {
  const user = await executor.selectFrom("users").selectAll().where("id", "=", actor.user.id).executeTakeFirstOrThrow();
  const p = await profileRow(executor, actor.user.id);
  return {
    profile: {
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerifiedAt !== null,
      jobTitle: p.jobTitle,
      bio: p.bio,
      avatar: p.avatarUrl,
      preferredStyle: p.preferredStyle,
      timezone: user.timezone,
      lastActiveAt: p.lastActiveAt,
      createdAt: user.createdAt,
      // biome-ignore lint/complexity/useMathMinMax: ISO date strings, compared as strings (Math.max would give NaN).
      updatedAt: p.updatedAt > user.updatedAt ? p.updatedAt : user.updatedAt,
    },
    preferences: parsePreferences(p.onboardingPreferences),
  };
}
export type ProfileOut = Awaited<ReturnType<typeof getProfile>>;

export async function updateProfile(actor: Actor, input: UpdateProfileInput) {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    if (input.name !== undefined) {
      await trx.updateTable("users").set({ name: input.name, updatedAt: now }).where("id", "=", actor.user.id).execute();
    }
    const changes: Partial<UserProfilesTable> = {};
    if (input.jobTitle !== undefined) changes.jobTitle = input.jobTitle;
    if (input.bio !== undefined) changes.bio = input.bio;
    if (input.avatar !== undefined) changes.avatarUrl = input.avatar;
    if (input.preferredStyle !== undefined) changes.preferredStyle = input.preferredStyle;
    if (Object.keys(changes).length) await upsertProfile(trx, actor.user.id, changes);
    return getProfile(actor, trx);
  });
}

export async function updateTimezone(actor: Actor, input: TimezoneInput) {
  await db.updateTable("users").set({ timezone: input.timezone, updatedAt: nowIso() }).where("id", "=", actor.user.id).execute();
  return { timezone: input.timezone };
}

export const ACTIVITY_WINDOW_MS = 5 * 60 * 1000;

/**
 * Records that the user is active, at most once per 5 minutes: one
 * conditional upsert, so two pings racing inside the window write once.
 */
export async function recordActivity(actor: Actor, now = new Date()) {
  const at = nowIso(now);
  const cutoff = nowIso(new Date(now.getTime() - ACTIVITY_WINDOW_MS));
  const result = await db
    .insertInto("userProfiles")
    .values({ ...(await profileRow(db, actor.user.id)), lastActiveAt: at, updatedAt: at })
    .onConflict((oc) =>
      oc.column("userId").doUpdateSet({ lastActiveAt: at }).where(sql<boolean>`userProfiles.lastActiveAt IS NULL OR userProfiles.lastActiveAt <= ${cutoff}`),
    )
    .executeTakeFirst();
  const recorded = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  if (recorded) return { recorded, lastActiveAt: at };
  const row = await profileRow(db, actor.user.id);
  return { recorded, lastActiveAt: row.lastActiveAt };
}
