import { sql, type Kysely } from "kysely";

// Audit log additions and the IP allowlist.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE ipAllowlistEntries (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    cidr TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    UNIQUE (orgId, cidr)
  ) STRICT`.execute(db);
  // auditLogs(orgId, createdAt) exists since 0001; the admin filters add these.
  await sql`CREATE INDEX auditLogs_org_category ON auditLogs(orgId, category, createdAt)`.execute(db);
  await sql`CREATE INDEX auditLogs_org_action ON auditLogs(orgId, action, createdAt)`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP INDEX IF EXISTS auditLogs_org_action`.execute(db);
  await sql`DROP INDEX IF EXISTS auditLogs_org_category`.execute(db);
  await sql`DROP TABLE IF EXISTS ipAllowlistEntries`.execute(db);
}
