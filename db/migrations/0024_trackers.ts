import { sql, type Kysely } from "kysely";

// Issue-tracker sync (docs/trackers.md): an organization's tracker
// connections (GitHub, Linear, Jira; token and webhook secret AES-256-GCM
// encrypted) and the issues created from a project's user stories, one per
// (project, service, target, story key), so re-sending updates instead of
// duplicating. Frozen: never edit after it has landed. Add a new numbered migration instead.

export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE trackerConnections (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    service TEXT NOT NULL CHECK (service IN ('github', 'linear', 'jira')),
    authKind TEXT NOT NULL CHECK (authKind IN ('token', 'oauth')),
    tokenEncrypted TEXT NOT NULL,
    accountLabel TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    webhookSecretEncrypted TEXT NOT NULL,
    lastError TEXT,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`.execute(db);
  await sql`CREATE INDEX trackerConnections_org ON trackerConnections(orgId, createdAt)`.execute(db);
  await sql`CREATE TABLE trackerIssues (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    connectionId TEXT REFERENCES trackerConnections(id) ON DELETE SET NULL,
    service TEXT NOT NULL,
    target TEXT NOT NULL,
    storyKey TEXT NOT NULL,
    section TEXT,
    externalId TEXT NOT NULL,
    externalNumber INTEGER,
    externalKey TEXT NOT NULL,
    url TEXT NOT NULL,
    title TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('open', 'in_progress', 'done')),
    lastSyncedAt TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    UNIQUE (projectId, service, target, storyKey)
  ) STRICT`.execute(db);
  await sql`CREATE INDEX trackerIssues_external ON trackerIssues(orgId, service, externalId)`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP TABLE IF EXISTS trackerIssues`.execute(db);
  await sql`DROP TABLE IF EXISTS trackerConnections`.execute(db);
}
