import type { User } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import type { RequestMeta } from "../actor";
import { AppError } from "../errors";
import { queueEmail } from "../mail/mail.server";
import { accountLockedMessage } from "../mail/templates";
import { defaultMembership } from "../orgs/orgs.server";
import { auditForUser } from "../audit/audit.server";

/** 5 failures within 30 minutes lock the account for 15 minutes (interface-spec "Limits"). */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 30 * 60 * 1000;
export const LOCK_MS = 15 * 60 * 1000;

function lockedError(lockedUntil: string, now = Date.now()) {
  const seconds = Math.max(1, Math.ceil((Date.parse(lockedUntil) - now) / 1000));
  return new AppError(
    "ACCOUNT_LOCKED",
    423,
    `Too many failed sign-ins. Try again in ${Math.ceil(seconds / 60)} minutes or reset your password.`,
    { headers: { "Retry-After": String(seconds) }, extra: { retryAfter: seconds } },
  );
}

export function assertNotLocked(user: User) {
  if (user.lockedUntil && user.lockedUntil > nowIso()) throw lockedError(user.lockedUntil);
}

/** Counts a failed attempt; on the fifth within the window, locks the account and throws 423. */
export async function recordFailedSignIn(user: User, meta: RequestMeta) {
  const lockedUntil = await db.transaction().execute(async (trx) => {
    const fresh = await trx.selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    const now = Date.now();
    const windowOpen =
      fresh.firstFailedSignInAt !== null && now - Date.parse(fresh.firstFailedSignInAt) < FAILURE_WINDOW_MS;
    const count = windowOpen ? fresh.failedSignInCount + 1 : 1;
    const first = windowOpen ? fresh.firstFailedSignInAt : nowIso(new Date(now));
    const lock = count >= MAX_FAILURES ? nowIso(new Date(now + LOCK_MS)) : null;
    await trx
      .updateTable("users")
      .set(
        lock
          ? { failedSignInCount: 0, firstFailedSignInAt: null, lockedUntil: lock }
          : { failedSignInCount: count, firstFailedSignInAt: first },
      )
      .where("id", "=", user.id)
      .execute();
    await auditForUser(trx, user.id, {
      actorEmail: user.email,
      action: "auth.sign_in_failed",
      category: "auth",
      severity: "warning",
      ip: meta.ip,
      userAgent: meta.userAgent,
      metadata: { attempt: count },
    });
    if (lock) {
      await auditForUser(trx, user.id, {
        actorEmail: user.email,
        action: "auth.account_locked",
        category: "auth",
        severity: "critical",
        ip: meta.ip,
        userAgent: meta.userAgent,
        metadata: { lockedUntil: lock },
      });
      const membership = await defaultMembership(user.id, trx);
      await queueEmail(trx, {
        to: user.email,
        orgId: membership?.orgId ?? null,
        kind: "account_locked",
        ...accountLockedMessage(user.name, LOCK_MS / 60_000),
      });
    }
    return lock;
  });
  if (lockedUntil) throw lockedError(lockedUntil);
}

export async function clearFailures(trx: Executor, userId: string) {
  await trx
    .updateTable("users")
    .set({ failedSignInCount: 0, firstFailedSignInAt: null, lockedUntil: null })
    .where("id", "=", userId)
    .execute();
}
