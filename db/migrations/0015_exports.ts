import { sql, type Kysely } from "kysely";

// Exports: scheduled exports with runs and delivery logs, workspace
// integrations (OAuth connections and pending states), e-mail attachments.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE scheduledExports (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    projectId TEXT REFERENCES projects(id) ON DELETE CASCADE,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    scheduleType TEXT NOT NULL,
    format TEXT NOT NULL,
    cronExpression TEXT,
    triggerStatus TEXT,
    scheduledAt TEXT,
    timezone TEXT NOT NULL,
    deliveryMethod TEXT NOT NULL,
    recipients TEXT NOT NULL DEFAULT '[]',
    webhookUrl TEXT,
    webhookSecret TEXT,
    includeChangelog INTEGER NOT NULL DEFAULT 0,
    customSubject TEXT,
    customMessage TEXT,
    isActive INTEGER NOT NULL DEFAULT 1,
    lastRunAt TEXT,
    nextRunAt TEXT,
    lastDeliveredContent TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`.execute(db);
  await sql`CREATE INDEX scheduledExports_due ON scheduledExports(isActive, nextRunAt)`.execute(db);
  await sql`CREATE INDEX scheduledExports_org ON scheduledExports(orgId, createdAt)`.execute(db);
  await sql`CREATE INDEX scheduledExports_project ON scheduledExports(projectId)`.execute(db);
  await sql`CREATE TABLE scheduledExportRuns (
    id TEXT PRIMARY KEY,
    scheduleId TEXT NOT NULL REFERENCES scheduledExports(id) ON DELETE CASCADE,
    scheduledFor TEXT NOT NULL,
    reason TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    emailIds TEXT,
    snapshot TEXT,
    createdAt TEXT NOT NULL,
    UNIQUE (scheduleId, scheduledFor)
  ) STRICT`.execute(db);
  await sql`CREATE TABLE exportDeliveryLogs (
    id TEXT PRIMARY KEY,
    scheduledExportId TEXT NOT NULL REFERENCES scheduledExports(id) ON DELETE CASCADE,
    runId TEXT REFERENCES scheduledExportRuns(id) ON DELETE SET NULL,
    status TEXT NOT NULL,
    deliveryMethod TEXT NOT NULL,
    recipients TEXT NOT NULL DEFAULT '[]',
    error TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`.execute(db);
  await sql`CREATE INDEX exportDeliveryLogs_schedule ON exportDeliveryLogs(scheduledExportId, createdAt)`.execute(db);
  await sql`CREATE TABLE integrationConnections (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    accessToken TEXT NOT NULL,
    refreshToken TEXT,
    expiresAt TEXT,
    workspaceId TEXT,
    workspaceName TEXT,
    accountEmail TEXT,
    scopes TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    UNIQUE (orgId, userId, provider)
  ) STRICT`.execute(db);
  await sql`CREATE TABLE oauthStates (
    stateHash TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    codeVerifier TEXT,
    redirectTo TEXT,
    expiresAt TEXT NOT NULL,
    createdAt TEXT NOT NULL
  ) STRICT`.execute(db);
  await sql`ALTER TABLE emails ADD COLUMN attachments TEXT`.execute(db);
}
