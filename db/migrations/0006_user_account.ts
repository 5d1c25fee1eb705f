import type { Kysely } from "kysely";

// User profile fields, onboarding, activity.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("userProfiles")
    .addColumn("userId", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("jobTitle", "text")
    .addColumn("bio", "text")
    .addColumn("avatarUrl", "text")
    .addColumn("preferredStyle", "text")
    .addColumn("onboardingPreferences", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("onboardingCompletedAt", "text")
    .addColumn("lastActiveAt", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("userProfiles").ifExists().execute();
}
