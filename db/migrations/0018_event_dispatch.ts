import { sql, type Kysely } from "kysely";

// Event dispatch in batches: the events table is the queue itself.
// An event is due when it is unprocessed, not given up and its runAt has
// come; a failed dispatch retries with backoff (attempts, lastError, runAt)
// and is given up (failedAt) after the last attempt. The per-event
// `events.dispatch` jobs of earlier versions are retired: their events are
// picked up from the table.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE events ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE events ADD COLUMN lastError TEXT`.execute(db);
  await sql`ALTER TABLE events ADD COLUMN runAt TEXT`.execute(db);
  await sql`ALTER TABLE events ADD COLUMN failedAt TEXT`.execute(db);
  await sql`UPDATE events SET runAt = createdAt WHERE runAt IS NULL`.execute(db);
  await sql`CREATE INDEX events_due ON events(runAt) WHERE processedAt IS NULL AND failedAt IS NULL`.execute(db);
  await sql`UPDATE jobs SET status = 'done', lockedAt = NULL WHERE type = 'events.dispatch' AND status IN ('queued', 'running')`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP INDEX IF EXISTS events_due`.execute(db);
  for (const column of ["failedAt", "runAt", "lastError", "attempts"]) {
    await sql`ALTER TABLE events DROP COLUMN ${sql.ref(column)}`.execute(db);
  }
}
