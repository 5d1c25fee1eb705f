/**
 * Operator tool: create the first superadmin's account (or find it).
 *   npm run admin:create -- admin@example.com "Ada Admin"
 * A new account gets a generated password, printed once. Superadmins are the
 * addresses in SUPERADMIN_EMAILS: the script says when the address still has
 * to be added there (then restart the app).
 */
import { migrateToLatest } from "#db/client";
import { closeDb, db } from "~/db.server";
import { createSuperadmin } from "~/ops/superadmin.server";

const [email, name] = process.argv.slice(2);
if (!email) {
  console.error('Usage: npm run admin:create -- <e-mail> ["Full Name"]');
  process.exit(1);
}
try {
  await migrateToLatest(db);
  const result = await createSuperadmin({ email, name });
  if (result.created) {
    console.log(`Created ${result.email} with its own workspace.`);
    console.log(`Password (shown once; change it after signing in): ${result.password}`);
  } else {
    console.log(`${result.email} already has an account; its password is unchanged.`);
  }
  if (result.listed) console.log(`${result.email} is a superadmin (listed in SUPERADMIN_EMAILS).`);
  else
    console.log(
      `To make ${result.email} a superadmin, add it to SUPERADMIN_EMAILS (comma-separated) and restart the app:\n` +
        `  SUPERADMIN_EMAILS=${result.email}`,
    );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await closeDb();
}
