import crypto from "node:crypto";
import { z } from "zod/v4";
import { config } from "~/config.server";
import { db } from "~/db.server";
import { writeAudit } from "~/domain/audit/audit.server";
import { hashPassword } from "~/domain/auth/password.server";
import { createOrganization } from "~/domain/orgs/orgs.server";
import { isSuperadminEmail, normalizeEmail } from "~/domain/users/users.server";
import { newId, nowIso } from "~/utils/ids.server";

/**
 * Operator tool behind `npm run admin:create`: makes the first superadmin's
 * account. Superadmins are the addresses listed in SUPERADMIN_EMAILS (there is
 * no flag in the database), so the account is created here (verified, with its
 * own workspace and a generated password shown once) or found when it exists,
 * and the result says whether SUPERADMIN_EMAILS already names it.
 */

export interface SuperadminResult {
  created: boolean;
  userId: string;
  email: string;
  /** The generated password, only when the account was created now. */
  password: string | null;
  /** True when SUPERADMIN_EMAILS already lists the address. */
  listed: boolean;
  /**
   * Whether the account has proven the address (created here, confirmed by
   * mail, or `confirm` now). A listed address is a superadmin only then:
   * registering someone else's address grants nothing.
   */
  confirmed: boolean;
}

/** A password that meets the sign-up rules: 24 random characters with upper, lower case, digits and a symbol. */
function generatePassword() {
  return `${crypto.randomBytes(18).toString("base64url")}-Aa9`;
}

/**
 * `confirm`: the operator vouches for an existing account's address (they
 * made it themselves); it is marked confirmed. Without it an unconfirmed
 * existing account is reported, never promoted.
 */
export async function createSuperadmin(input: { email: string; name?: string; confirm?: boolean }): Promise<SuperadminResult> {
  const email = normalizeEmail(input.email);
  if (!z.email().safeParse(email).success) throw new Error(`Not an e-mail address: ${input.email}`);
  const listed = isSuperadminEmail(email);
  const existing = await db.selectFrom("users").select(["id", "emailVerifiedAt"]).where("email", "=", email).executeTakeFirst();
  if (existing) {
    let confirmed = existing.emailVerifiedAt !== null;
    if (!confirmed && input.confirm) {
      const now = nowIso();
      await db.updateTable("users").set({ emailVerifiedAt: now, updatedAt: now }).where("id", "=", existing.id).execute();
      confirmed = true;
    }
    return { created: false, userId: existing.id, email, password: null, listed, confirmed };
  }

  const name = input.name?.trim() || email.split("@")[0]!;
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const userId = await db.transaction().execute(async (trx) => {
    const now = nowIso();
    const id = newId();
    await trx
      .insertInto("users")
      .values({
        id,
        email,
        name,
        passwordHash,
        emailVerifiedAt: now,
        timezone: "UTC",
        failedSignInCount: 0,
        firstFailedSignInAt: null,
        lockedUntil: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const org = await createOrganization(trx, { name: `${name}'s workspace`, ownerId: id });
    await writeAudit(trx, {
      orgId: org.id,
      actorId: id,
      actorEmail: email,
      action: "user.created_by_operator",
      category: "security",
      metadata: { superadmin: listed, superadminEmailsConfigured: config().SUPERADMIN_EMAILS.length > 0 },
    });
    return id;
  });
  return { created: true, userId, email, password, listed, confirmed: true };
}
