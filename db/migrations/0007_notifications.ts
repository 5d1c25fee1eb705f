import { type Kysely, sql } from "kysely";

// Notifications, notification preferences, unsubscribe.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("notifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("orgId", "text", (c) => c.references("organizations.id").onDelete("cascade"))
    .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text")
    .addColumn("link", "text")
    .addColumn("data", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("readAt", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX notifications_user ON notifications (userId, createdAt DESC)`.execute(db);
  // An event notifies each user at most once, even when the worker replays it.
  await sql`CREATE UNIQUE INDEX notifications_event_user ON notifications (json_extract(data, '$.eventId'), userId)
    WHERE json_extract(data, '$.eventId') IS NOT NULL`.execute(db);

  await db.schema
    .createTable("notificationPreferences")
    .addColumn("userId", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("emailNotifications", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("projectUpdates", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("teamActivity", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("commentMentions", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("exportNotifications", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("billingAlerts", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("weeklyDigest", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("securityAlerts", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("digestSentAt", "text")
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("unsubscribeTokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("tokenHash", "text", (c) => c.notNull().unique())
    .addColumn("expiresAt", "text", (c) => c.notNull())
    .addColumn("usedAt", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX unsubscribeTokens_user ON unsubscribeTokens (userId)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("unsubscribeTokens").ifExists().execute();
  await db.schema.dropTable("notificationPreferences").ifExists().execute();
  await db.schema.dropTable("notifications").ifExists().execute();
}
