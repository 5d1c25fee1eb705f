import { sql, type Kysely } from "kysely";

// Frozen: never edit after it has landed. Add a new numbered migration instead.
// Tracker webhooks (docs/trackers.md, "Replayed webhooks" and "Where stories
// may be sent"):
// - trackerWebhookDeliveries: the deliveries a connection already applied,
//   by the service's delivery id (GitHub X-GitHub-Delivery, Linear
//   Linear-Delivery, Jira X-Atlassian-Webhook-Identifier) and by a SHA-256
//   of the signed body, so a repeat is acknowledged without being applied
//   again. Kept 7 days (older rows are deleted as deliveries arrive).
// - trackerConnections.allowedTargets: the repositories, teams or projects an
//   owner or admin allows stories to be sent to, a JSON array of {id, name};
//   NULL while none was chosen (any target the token reaches). A connection
//   that already sent stories starts with the targets it already used.

export async function up(db: Kysely<unknown>) {
  await sql
    .raw(`CREATE TABLE trackerWebhookDeliveries (
    connectionId TEXT NOT NULL REFERENCES trackerConnections(id) ON DELETE CASCADE,
    deliveryKey TEXT NOT NULL,
    receivedAt TEXT NOT NULL,
    PRIMARY KEY (connectionId, deliveryKey)
  ) WITHOUT ROWID`)
    .execute(db);
  await sql`CREATE INDEX trackerWebhookDeliveries_receivedAt ON trackerWebhookDeliveries (receivedAt)`.execute(db);
  await sql`ALTER TABLE trackerConnections ADD COLUMN allowedTargets TEXT`.execute(db);
  await sql`UPDATE trackerConnections SET allowedTargets = (
      SELECT json_group_array(json_object('id', t.target, 'name', t.target))
      FROM (SELECT DISTINCT target FROM trackerIssues WHERE connectionId = trackerConnections.id ORDER BY target) t
    )
    WHERE EXISTS (SELECT 1 FROM trackerIssues WHERE connectionId = trackerConnections.id)`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`ALTER TABLE trackerConnections DROP COLUMN allowedTargets`.execute(db);
  await sql.raw("DROP TABLE IF EXISTS trackerWebhookDeliveries").execute(db);
}
