import { type Kysely, sql } from "kysely";

// Notifications, notification preferences, unsubscribe (issue 9).
// Not landed yet: editable until the issue that adds it is resolved; frozen after.

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
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("notifications").ifExists().execute();
}
