/**
 * Operator tool: create the first superadmin's account (or find it).
 *   npm run admin:create -- admin@example.com "Ada Admin"
 * A new account gets a generated password, printed once. Superadmins are the
 * addresses in SUPERADMIN_EMAILS whose account has confirmed the address: the
 * script says when the address still has to be added there (then restart the
 * app). An existing account that never confirmed its address is reported;
 * `--confirm` marks it confirmed (only for an account you know is yours).
 */
import { migrateToLatest } from "#db/client";
import { closeDb, db } from "~/db.server";
import { createSuperadmin } from "~/ops/superadmin.server";

const args = process.argv.slice(2);
const confirm = args.includes("--confirm");
const [email, name] = args.filter((a) => a !== "--confirm");
if (!email) {
  console.error('Usage: npm run admin:create -- <e-mail> ["Full Name"] [--confirm]');
  process.exit(1);
}
try {
  await migrateToLatest(db);
  const result = await createSuperadmin({ email, name, confirm });
  if (result.created) {
    console.log(`Created ${result.email} with its own workspace.`);
    console.log(`Password (shown once; change it after signing in): ${result.password}`);
  } else {
    console.log(`${result.email} already has an account; its password is unchanged.`);
  }
  if (!result.confirmed) {
    console.log(
      `${result.email} has not confirmed its address, so it is not a superadmin: anyone can register an address. ` +
        "If you created this account yourself, run again with --confirm; if not, delete it.",
    );
  } else if (result.listed) console.log(`${result.email} is a superadmin (listed in SUPERADMIN_EMAILS).`);
  else
    console.log(
      `To make ${result.email} a superadmin, add it to SUPERADMIN_EMAILS (comma-separated) and restart the app:\n` + `  SUPERADMIN_EMAILS=${result.email}`,
    );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await closeDb();
}
