import type { Membership, Organization, User } from "#db/schema";
import { config } from "~/config.server";
import { db } from "~/db.server";

export function isSuperadminEmail(email: string) {
  return config().SUPERADMIN_EMAILS.includes(email.toLowerCase());
}

/**
 * A platform superadmin: an address listed in SUPERADMIN_EMAILS that the
 * account has proven it owns (confirmed by mail, or created by the operator
 * with `npm run admin:create`). Registering a listed address is not enough.
 */
export function isSuperadmin(user: { email: string; emailVerifiedAt: string | null }) {
  return user.emailVerifiedAt !== null && isSuperadminEmail(user.email);
}

export function publicUser(user: User) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    timezone: user.timezone,
    isSuperadmin: isSuperadmin(user),
    createdAt: user.createdAt,
  };
}
export type PublicUser = ReturnType<typeof publicUser>;

export function publicOrganization(org: Organization, role: Membership["role"]) {
  return { id: org.id, name: org.name, slug: org.slug, plan: org.plan, role };
}
export type PublicOrganization = ReturnType<typeof publicOrganization>;

export function normalizeEmail(email: string) {
  return email.trim().toLowerCase();
}

export function findUserByEmail(email: string) {
  return db.selectFrom("users").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst();
}

export function isValidTimezone(tz: string) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
