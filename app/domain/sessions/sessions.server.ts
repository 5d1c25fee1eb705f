import { compiledQuery, db, type Executor, type Slots } from "~/db.server";
import { nowIso, randomToken, sha256 } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { isSuperadmin } from "../users/users.server";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Sessions are stored under sha256 of the value in the cookie: a copy of the
 * database (a backup, a replica) holds no usable session. `Actor.sessionId`
 * and every query use the stored (hashed) id; only the cookie holds the raw one.
 */
export const sessionKey = (cookieValue: string) => sha256(cookieValue);

export async function createSession(trx: Executor, input: { userId: string; orgId: string; ip: string | null; userAgent: string | null }) {
  const raw = randomToken(32);
  const now = new Date();
  await trx
    .insertInto("sessions")
    .values({
      id: sessionKey(raw),
      userId: input.userId,
      orgId: input.orgId,
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 300) ?? null,
      expiresAt: nowIso(new Date(now.getTime() + SESSION_TTL_MS)),
      createdAt: nowIso(now),
    })
    .execute();
  /** The value for the cookie; never stored. */
  return raw;
}

/** Whether a session still exists (deleting an organization moves its members' sessions or ends them). */
export async function sessionExists(id: string | null | undefined) {
  if (!id) return false;
  return Boolean(await db.selectFrom("sessions").select("id").where("id", "=", id).executeTakeFirst());
}

export async function deleteSession(id: string) {
  await db.deleteFrom("sessions").where("id", "=", id).execute();
}

export async function deleteUserSessions(trx: Executor, userId: string, exceptId?: string) {
  let q = trx.deleteFrom("sessions").where("userId", "=", userId);
  if (exceptId) q = q.where("id", "!=", exceptId);
  await q.execute();
}

/** The session, its user and their membership in the session's organization: one compiled query per signed-in request. */
const sessionWithMember = compiledQuery((p: Slots<"sessionId">) =>
  db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.userId")
    .leftJoin("memberships as m", (join) => join.onRef("m.userId", "=", "s.userId").onRef("m.orgId", "=", "s.orgId"))
    .leftJoin("organizations as o", "o.id", "m.orgId")
    .select([
      "u.id",
      "u.name",
      "u.email",
      "u.emailVerifiedAt",
      "u.timezone",
      "s.orgId as sessionOrgId",
      "s.expiresAt as sessionExpiresAt",
      "m.role",
      "o.name as orgName",
      "o.plan",
    ])
    .where("s.id", "=", p.sessionId),
);

/** The actor behind a session cookie's value, or null when it is unknown, expired or its membership is gone. */
export async function actorFromSession(cookieValue: string, meta: { ip: string | null; userAgent: string | null; requestId?: string }): Promise<Actor | null> {
  const sessionId = sessionKey(cookieValue);
  const [row] = (await sessionWithMember({ sessionId })).rows;
  if (!row || row.sessionExpiresAt <= nowIso() || !row.role || !row.plan) return null;
  return {
    user: { id: row.id, email: row.email, name: row.name, emailVerified: row.emailVerifiedAt !== null, timezone: row.timezone },
    org: { id: row.sessionOrgId, name: row.orgName ?? "", plan: row.plan },
    role: row.role,
    via: "session",
    isSuperadmin: isSuperadmin(row),
    sessionId,
    ip: meta.ip,
    userAgent: meta.userAgent,
    requestId: meta.requestId,
  };
}
