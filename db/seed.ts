/**
 * Demo workspace (npm run db:seed): an owner on the Pro plan so every
 * feature, including API keys, can be tried at once. Idempotent.
 *   demo@example.com / Demo-Password-1
 */
import { migrateToLatest } from "./client";
import { db, closeDb } from "~/db.server";
import { register } from "~/domain/auth/auth.server";
import { ensureSystemTemplates } from "~/domain/templates/system.server";
import { findUserByEmail } from "~/domain/users/users.server";

export const DEMO_EMAIL = "demo@example.com";
export const DEMO_PASSWORD = "Demo-Password-1";

export async function seed() {
  await migrateToLatest(db);
  await ensureSystemTemplates();
  if (await findUserByEmail(DEMO_EMAIL)) {
    console.log(`Demo workspace already exists (${DEMO_EMAIL})`);
    return;
  }
  const { organization } = await register(
    { name: "Demo Owner", email: DEMO_EMAIL, password: DEMO_PASSWORD, timezone: "UTC" },
    { ip: null, userAgent: "seed", appUrl: process.env.APP_URL ?? "http://localhost:3000" },
  );
  const now = new Date().toISOString();
  await db
    .updateTable("organizations")
    .set({ name: "Demo workspace", plan: "pro", updatedAt: now })
    .where("id", "=", organization.id)
    .execute();
  await db.updateTable("users").set({ emailVerifiedAt: now }).where("email", "=", DEMO_EMAIL).execute();
  console.log(`Demo workspace created: sign in as ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  await seed();
  await closeDb();
}
