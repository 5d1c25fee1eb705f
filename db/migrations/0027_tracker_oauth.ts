import { sql, type Kysely } from "kysely";

// Frozen: never edit after it has landed. Add a new numbered migration instead.
// Tracker connections made with OAuth (docs/trackers.md, "Connecting with
// OAuth"): the refresh token (AES-256-GCM encrypted, like the access token in
// tokenEncrypted) and when the access token expires (ISO time; null when it
// does not expire, and for pasted tokens). Jira Cloud's 3LO tokens last an
// hour and their refresh tokens rotate on every use.

export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE trackerConnections ADD COLUMN refreshTokenEncrypted TEXT`.execute(db);
  await sql`ALTER TABLE trackerConnections ADD COLUMN tokenExpiresAt TEXT`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`ALTER TABLE trackerConnections DROP COLUMN tokenExpiresAt`.execute(db);
  await sql`ALTER TABLE trackerConnections DROP COLUMN refreshTokenEncrypted`.execute(db);
}
