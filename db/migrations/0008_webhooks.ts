import { type Kysely, sql } from "kysely";

// Outgoing webhooks and their delivery log.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("webhooks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("orgId", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("secretEncrypted", "text", (c) => c.notNull())
    .addColumn("secretHint", "text", (c) => c.notNull())
    .addColumn("isActive", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("signatureHeaderName", "text", (c) => c.notNull().defaultTo("x-webhook-signature"))
    .addColumn("consecutiveFailures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("disabledReason", "text")
    .addColumn("lastDeliveryAt", "text")
    .addColumn("createdById", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX webhooks_org ON webhooks (orgId, createdAt)`.execute(db);

  await db.schema
    .createTable("webhookDeliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("webhookId", "text", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
    .addColumn("orgId", "text", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
    .addColumn("eventId", "text")
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("responseStatus", "integer")
    .addColumn("durationMs", "integer")
    .addColumn("error", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("lastAttemptAt", "text")
    .addColumn("deliveredAt", "text")
    .execute();
  // One delivery per (event, webhook): the fan-out may run again after a crash.
  await sql`CREATE UNIQUE INDEX webhook_deliveries_event ON webhookDeliveries (eventId, webhookId)`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_webhook ON webhookDeliveries (webhookId, createdAt DESC)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("webhookDeliveries").ifExists().execute();
  await db.schema.dropTable("webhooks").ifExists().execute();
}
