import type { User } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor, RequestMeta } from "../actor";
import { auditForUser, writeAudit } from "../audit/audit.server";
import { AppError, validationError } from "../errors";
import { queueEmail } from "../mail/mail.server";
import { passwordChangedMessage, resetPasswordMessage, verifyEmailMessage } from "../mail/templates";
import { redeemInvitation } from "../orgs/invitations.server";
import { ipAllowed, ipNotAllowed } from "../allowlist/allowlist.server";
import { createOrganization, defaultMembership, listMemberships } from "../orgs/orgs.server";
import { createSession, deleteUserSessions } from "../sessions/sessions.server";
import { findUserByEmail, isValidTimezone, normalizeEmail, publicOrganization, publicUser } from "../users/users.server";
import type { ChangePasswordInput, RegisterInput, ResetPasswordInput, SignInInput } from "./auth.schema";
import { beforeSignIn, clearAllFailures, clearFailures, recordFailedSignIn } from "./lockout.server";
import { assertStrongPassword, burnPasswordCheck, hashPassword, verifyPassword } from "./password.server";
import { checkAuthRate } from "./rate.server";
import { consumeToken, issueToken } from "./tokens.server";

async function sendVerification(trx: Executor, user: Pick<User, "id" | "name" | "email">, meta: RequestMeta, orgId: string | null) {
  const token = await issueToken(trx, user.id, "email_verification");
  const url = `${meta.appUrl}/verify-email?token=${encodeURIComponent(token)}`;
  await queueEmail(trx, { to: user.email, orgId, kind: "verify_email", ...verifyEmailMessage(user.name, url) });
}

async function signedIn(trx: Executor, user: User, orgId: string, meta: RequestMeta) {
  const membership = await defaultMembershipIn(trx, user.id, orgId);
  const sessionId = await createSession(trx, { userId: user.id, orgId, ip: meta.ip, userAgent: meta.userAgent });
  return { user: publicUser(user), organization: membership, sessionId };
}

async function defaultMembershipIn(trx: Executor, userId: string, orgId: string) {
  const row = await trx
    .selectFrom("memberships as m")
    .innerJoin("organizations as o", "o.id", "m.orgId")
    .selectAll("o")
    .select("m.role")
    .where("m.userId", "=", userId)
    .where("m.orgId", "=", orgId)
    .executeTakeFirstOrThrow();
  const { role, ...org } = row;
  return publicOrganization(org, role);
}

export async function register(input: RegisterInput, meta: RequestMeta) {
  checkAuthRate(meta.ip, input.email);
  assertStrongPassword(input.password);
  const timezone = input.timezone || "UTC";
  if (!isValidTimezone(timezone)) throw validationError("timezone", "Use an IANA timezone such as Europe/Paris");
  const passwordHash = await hashPassword(input.password);
  const email = normalizeEmail(input.email);

  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
    if (existing) throw new AppError("EMAIL_TAKEN", 409, "An account with this e-mail already exists");
    const now = nowIso();
    const user: User = {
      id: newId(),
      email,
      name: input.name,
      passwordHash,
      emailVerifiedAt: null,
      timezone,
      failedSignInCount: 0,
      firstFailedSignInAt: null,
      lockedUntil: null,
      createdAt: now,
      updatedAt: now,
    };
    await trx.insertInto("users").values(user).execute();

    let orgId: string;
    if (input.inviteToken) {
      const { org } = await redeemInvitation(trx, input.inviteToken, user, meta);
      orgId = org.id;
      // The invitation reached this address, which proves it.
      user.emailVerifiedAt = now;
      await trx.updateTable("users").set({ emailVerifiedAt: now }).where("id", "=", user.id).execute();
    } else {
      const org = await createOrganization(trx, { name: `${input.name}'s workspace`, ownerId: user.id });
      orgId = org.id;
      await sendVerification(trx, user, meta, orgId);
    }
    await writeAudit(trx, {
      orgId,
      actorId: user.id,
      actorEmail: email,
      action: "user.registered",
      category: "auth",
      ip: meta.ip,
      userAgent: meta.userAgent,
      metadata: { viaInvitation: Boolean(input.inviteToken) },
    });
    return signedIn(trx, user, orgId, meta);
  });
}

/**
 * Where a sign-in lands: the oldest membership whose IP allowlist admits the
 * caller. When every organization of the account refuses this address, no
 * session is made (403 IP_NOT_ALLOWED), rather than one that fails on its
 * first request.
 */
async function signInMembership(userId: string, ip: string | null) {
  const oldest = await defaultMembership(userId);
  if (!oldest) throw new AppError("FORBIDDEN", 403, "This account no longer belongs to any organization");
  if (await ipAllowed(oldest.orgId, ip)) return oldest;
  for (const m of await listMemberships(userId)) if (await ipAllowed(m.orgId, ip)) return m;
  throw ipNotAllowed(ip);
}

export async function signIn(input: SignInInput, meta: RequestMeta) {
  checkAuthRate(meta.ip, input.email, { perSource: true });
  const email = normalizeEmail(input.email);
  // Known and unknown addresses go through the same steps (lockout.server.ts).
  await beforeSignIn(email, meta);
  const user = await findUserByEmail(email);
  const ok = user ? await verifyPassword(user.passwordHash, input.password) : await burnPasswordCheck(input.password);
  if (!user || !ok) {
    // Records the failure (and the lock on the fifth from this source) before answering.
    await recordFailedSignIn(email, user, meta);
    throw new AppError("INVALID_CREDENTIALS", 401, "E-mail or password is incorrect");
  }
  const membership = await signInMembership(user.id, meta.ip);
  return db.transaction().execute(async (trx) => {
    await clearFailures(trx, email, meta);
    await auditForUser(trx, user.id, {
      actorEmail: user.email,
      action: "auth.sign_in",
      category: "auth",
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    return signedIn(trx, user, membership.orgId, meta);
  });
}

export async function signOut(actor: Actor) {
  if (!actor.sessionId) return;
  await db.deleteFrom("sessions").where("id", "=", actor.sessionId).execute();
}

/** Always succeeds, whether or not the e-mail has an account. */
export async function requestPasswordReset(input: { email: string }, meta: RequestMeta) {
  checkAuthRate(meta.ip, input.email);
  const user = await findUserByEmail(input.email);
  if (!user) return;
  await db.transaction().execute(async (trx) => {
    const token = await issueToken(trx, user.id, "password_reset");
    const url = `${meta.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
    const membership = await defaultMembership(user.id, trx);
    await queueEmail(trx, {
      to: user.email,
      orgId: membership?.orgId ?? null,
      kind: "reset_password",
      ...resetPasswordMessage(user.name, url),
    });
    await auditForUser(trx, user.id, {
      actorEmail: user.email,
      action: "auth.password_reset_requested",
      category: "auth",
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
  });
}

export async function resetPassword(input: ResetPasswordInput, meta: RequestMeta) {
  checkAuthRate(meta.ip, `reset:${input.token.slice(0, 12)}`);
  assertStrongPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  await db.transaction().execute(async (trx) => {
    const userId = await consumeToken(trx, input.token, "password_reset");
    const user = await trx.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
    const now = nowIso();
    await trx
      .updateTable("users")
      .set({
        passwordHash,
        emailVerifiedAt: user.emailVerifiedAt ?? now,
        updatedAt: now,
      })
      .where("id", "=", userId)
      .execute();
    await deleteUserSessions(trx, userId);
    await clearAllFailures(trx, user.email);
    await auditForUser(trx, userId, {
      actorEmail: user.email,
      action: "auth.password_reset",
      category: "auth",
      severity: "warning",
      ip: meta.ip,
      userAgent: meta.userAgent,
    });
    const membership = await defaultMembership(userId, trx);
    await queueEmail(trx, {
      to: user.email,
      orgId: membership?.orgId ?? null,
      kind: "password_changed",
      ...passwordChangedMessage(user.name),
    });
  });
}

export async function changePassword(actor: Actor, input: ChangePasswordInput) {
  if (actor.via !== "session") {
    throw new AppError("FORBIDDEN", 403, "Changing a password needs a signed-in browser session");
  }
  const user = await db.selectFrom("users").selectAll().where("id", "=", actor.user.id).executeTakeFirstOrThrow();
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw validationError("currentPassword", "Current password is incorrect");
  }
  if (input.currentPassword === input.newPassword) {
    throw validationError("newPassword", "Choose a password different from the current one");
  }
  assertStrongPassword(input.newPassword, "newPassword");
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ passwordHash, updatedAt: nowIso() }).where("id", "=", user.id).execute();
    await deleteUserSessions(trx, user.id, actor.sessionId);
    await auditForUser(trx, user.id, {
      actorEmail: user.email,
      action: "auth.password_changed",
      category: "auth",
      severity: "warning",
      ip: actor.ip,
      userAgent: actor.userAgent,
    });
    await queueEmail(trx, {
      to: user.email,
      orgId: actor.org.id,
      kind: "password_changed",
      ...passwordChangedMessage(user.name),
    });
  });
}

export async function verifyEmail(input: { token: string }) {
  return db.transaction().execute(async (trx) => {
    const userId = await consumeToken(trx, input.token, "email_verification");
    const now = nowIso();
    await trx.updateTable("users").set({ emailVerifiedAt: now, updatedAt: now }).where("id", "=", userId).where("emailVerifiedAt", "is", null).execute();
    await auditForUser(trx, userId, { action: "auth.email_verified", category: "auth" });
    return { verified: true as const };
  });
}

/** Always succeeds; sends a fresh link only to an existing, unverified account. */
export async function resendVerification(input: { email: string }, meta: RequestMeta) {
  checkAuthRate(meta.ip, input.email);
  const user = await findUserByEmail(input.email);
  if (!user || user.emailVerifiedAt) return;
  await db.transaction().execute(async (trx) => {
    const membership = await defaultMembership(user.id, trx);
    await sendVerification(trx, user, meta, membership?.orgId ?? null);
  });
}

/** The signed-in user with their current organization. */
export async function currentAccount(actor: Actor) {
  const user = await db.selectFrom("users").selectAll().where("id", "=", actor.user.id).executeTakeFirstOrThrow();
  const org = await db.selectFrom("organizations").selectAll().where("id", "=", actor.org.id).executeTakeFirstOrThrow();
  return { user: publicUser(user), organization: publicOrganization(org, actor.role) };
}
