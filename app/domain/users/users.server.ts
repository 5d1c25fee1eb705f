import type { Membership, Organization, User } from "#db/schema";
import { config } from "~/config.server";
import { db } from "~/db.server";

export function isSuperadminEmail(email: string) {
  return config().SUPERADMIN_EMAILS.includes(email.toLowerCase());
}

export function publicUser(user: User) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    timezone: user.timezone,
    isSuperadmin: isSuperadminEmail(user.email),
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
