import { db, type Executor } from "~/db.server";
import { nowIso, randomToken } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { publicUser, isSuperadminEmail } from "../users/users.server";
import { findMembership } from "../orgs/orgs.server";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export async function createSession(
  trx: Executor,
  input: { userId: string; orgId: string; ip: string | null; userAgent: string | null },
) {
  const id = randomToken(32);
  const now = new Date();
  await trx
    .insertInto("sessions")
    .values({
      id,
      userId: input.userId,
      orgId: input.orgId,
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 300) ?? null,
      expiresAt: nowIso(new Date(now.getTime() + SESSION_TTL_MS)),
      createdAt: nowIso(now),
    })
    .execute();
  return id;
}

export async function deleteSession(id: string) {
  await db.deleteFrom("sessions").where("id", "=", id).execute();
}

export async function deleteUserSessions(trx: Executor, userId: string, exceptId?: string) {
  let q = trx.deleteFrom("sessions").where("userId", "=", userId);
  if (exceptId) q = q.where("id", "!=", exceptId);
  await q.execute();
}

/** The actor behind a session id, or null when it is unknown, expired or its membership is gone. */
export async function actorFromSession(
  sessionId: string,
  meta: { ip: string | null; userAgent: string | null },
): Promise<Actor | null> {
  const row = await db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.userId")
    .selectAll("u")
    .select(["s.orgId as sessionOrgId", "s.expiresAt as sessionExpiresAt"])
    .where("s.id", "=", sessionId)
    .executeTakeFirst();
  if (!row || row.sessionExpiresAt <= nowIso()) return null;
  const membership = await findMembership(row.id, row.sessionOrgId);
  if (!membership) return null;
  const { sessionOrgId: _o, sessionExpiresAt: _e, ...user } = row;
  const u = publicUser(user);
  return {
    user: { id: u.id, email: u.email, name: u.name, emailVerified: u.emailVerified, timezone: u.timezone },
    org: { id: membership.orgId, name: membership.orgName, plan: membership.plan },
    role: membership.role,
    via: "session",
    isSuperadmin: isSuperadminEmail(u.email),
    sessionId,
    ip: meta.ip,
    userAgent: meta.userAgent,
  };
}

