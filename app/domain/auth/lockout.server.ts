import type { User } from "#db/schema";
import { db, type Executor } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import type { RequestMeta } from "../actor";
import { auditForUser } from "../audit/audit.server";
import { AppError } from "../errors";
import { queueEmail } from "../mail/mail.server";
import { accountLockedMessage } from "../mail/templates";
import { defaultMembership } from "../orgs/orgs.server";
import { plural } from "~/utils/plural";

/**
 * Sign-in lockout (docs/security.md, "Sign-in lockout…": 5 failures, 15-minute lock,
 * 30-minute window), per (address, source) rather than per account, and the
 * same for addresses with and without an account (docs/security.md,
 * "Sign-in lockout"):
 *
 * - Five failures for one address from one source (client IP) within 30
 *   minutes lock that address *from that source* for 15 minutes: 423
 *   ACCOUNT_LOCKED with Retry-After, even with the right password. An
 *   attacker elsewhere cannot lock the owner out of their own sign-ins.
 * - An unknown address is counted and locked exactly like a known one, so
 *   401 / 423 answers do not tell which addresses have accounts.
 * - Against guessing from many sources, every attempt for an address that
 *   failed more than SLOW_AFTER times in the window (from anywhere) is slowed
 *   down, exponentially up to SLOW_MAX_MS: a delay, never a lock, so the
 *   owner still signs in, just slower.
 */

export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 30 * 60 * 1000;
export const LOCK_MS = 15 * 60 * 1000;
/** Failures of an address from all sources after which every attempt waits. */
export const SLOW_AFTER = 10;
export const SLOW_MAX_MS = 5_000;
const ALL_SOURCES = "*";

/** How a slowed-down attempt waits (tests record the waits instead of sleeping). */
export const throttlePolicy = {
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

const sourceOf = (meta: Pick<RequestMeta, "ip">) => meta.ip ?? "unknown";

function lockedError(lockedUntil: string, now = Date.now()) {
  const seconds = Math.max(1, Math.ceil((Date.parse(lockedUntil) - now) / 1000));
  return new AppError(
    "ACCOUNT_LOCKED",
    423,
    `Too many failed sign-ins for this address from your network. Try again in ${plural(Math.ceil(seconds / 60), "minute")} or reset your password.`,
    { headers: { "Retry-After": String(seconds) }, extra: { retryAfter: seconds } },
  );
}

/** The delay before checking a password for an address with `failures` recent failures from all sources. */
export function slowDownMs(failures: number) {
  if (failures <= SLOW_AFTER) return 0;
  return Math.min(SLOW_MAX_MS, 250 * 2 ** (failures - SLOW_AFTER - 1));
}

const windowOpen = (firstFailureAt: string, now: number) => now - Date.parse(firstFailureAt) < FAILURE_WINDOW_MS;

/**
 * Before checking a password: 423 when this address is locked from this
 * source; waits when the address is under attack from many sources.
 */
export async function beforeSignIn(email: string, meta: Pick<RequestMeta, "ip">) {
  const rows = await db
    .selectFrom("signInThrottles")
    .selectAll()
    .where("email", "=", email)
    .where("source", "in", [sourceOf(meta), ALL_SOURCES])
    .execute();
  const now = Date.now();
  const pair = rows.find((r) => r.source !== ALL_SOURCES);
  if (pair?.lockedUntil && Date.parse(pair.lockedUntil) > now) throw lockedError(pair.lockedUntil, now);
  const all = rows.find((r) => r.source === ALL_SOURCES);
  const wait = all && windowOpen(all.firstFailureAt, now) ? slowDownMs(all.failures) : 0;
  if (wait) await throttlePolicy.sleep(wait);
}

async function countFailure(trx: Executor, email: string, source: string, now: number) {
  const at = nowIso(new Date(now));
  const row = await trx.selectFrom("signInThrottles").selectAll().where("email", "=", email).where("source", "=", source).executeTakeFirst();
  const open = row && windowOpen(row.firstFailureAt, now);
  const failures = open ? row.failures + 1 : 1;
  const lock = source !== ALL_SOURCES && failures >= MAX_FAILURES ? nowIso(new Date(now + LOCK_MS)) : null;
  const next = lock ? { failures: 0, firstFailureAt: at, lockedUntil: lock } : { failures, firstFailureAt: open ? row.firstFailureAt : at, lockedUntil: null };
  await trx
    .insertInto("signInThrottles")
    .values({ email, source, ...next })
    .onConflict((oc) => oc.columns(["email", "source"]).doUpdateSet(next))
    .execute();
  return lock;
}

/**
 * Counts a failed sign-in of `email` from this source (and from all
 * sources); on the fifth from this source, locks the pair and throws 423.
 * `user` is the account, when there is one (for its audit log and mail).
 */
export async function recordFailedSignIn(email: string, user: User | undefined, meta: RequestMeta) {
  const now = Date.now();
  const lockedUntil = await db.transaction().execute(async (trx) => {
    // Old rows go as new ones come: nothing outside the window matters.
    const stale = nowIso(new Date(now - FAILURE_WINDOW_MS));
    await trx
      .deleteFrom("signInThrottles")
      .where("firstFailureAt", "<", stale)
      .where((eb) => eb.or([eb("lockedUntil", "is", null), eb("lockedUntil", "<", nowIso(new Date(now)))]))
      .execute();
    const lock = await countFailure(trx, email, sourceOf(meta), now);
    await countFailure(trx, email, ALL_SOURCES, now);
    if (user) await auditFailure(trx, user, meta, lock);
    return lock;
  });
  if (lockedUntil) throw lockedError(lockedUntil, now);
}

async function auditFailure(trx: Executor, user: User, meta: RequestMeta, lock: string | null) {
  await auditForUser(trx, user.id, {
    actorEmail: user.email,
    action: "auth.sign_in_failed",
    category: "auth",
    severity: "warning",
    ip: meta.ip,
    userAgent: meta.userAgent,
  });
  if (!lock) return;
  await auditForUser(trx, user.id, {
    actorEmail: user.email,
    action: "auth.account_locked",
    category: "auth",
    severity: "critical",
    ip: meta.ip,
    userAgent: meta.userAgent,
    metadata: { lockedUntil: lock, source: meta.ip },
  });
  const membership = await defaultMembership(user.id, trx);
  await queueEmail(trx, {
    to: user.email,
    orgId: membership?.orgId ?? null,
    kind: "account_locked",
    ...accountLockedMessage(user.name, LOCK_MS / 60_000),
  });
}

/** A successful sign-in clears this source's count (not the address-wide one: an attack elsewhere goes on being slowed). */
export async function clearFailures(trx: Executor, email: string, meta: Pick<RequestMeta, "ip">) {
  await trx.deleteFrom("signInThrottles").where("email", "=", email).where("source", "=", sourceOf(meta)).execute();
}

/** A password reset proves the mailbox: every lock and count of the address ends. */
export async function clearAllFailures(trx: Executor, email: string) {
  await trx.deleteFrom("signInThrottles").where("email", "=", email).execute();
}
