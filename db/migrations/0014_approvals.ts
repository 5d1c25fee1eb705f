import { sql, type Kysely } from "kysely";

// Approval workflows, requests and decisions.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE approvalWorkflows (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    triggerType TEXT NOT NULL,
    approverIds TEXT NOT NULL DEFAULT '[]',
    requiredApprovals INTEGER NOT NULL DEFAULT 1,
    allowSelfApproval INTEGER NOT NULL DEFAULT 0,
    isActive INTEGER NOT NULL DEFAULT 1,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`.execute(db);
  await sql`CREATE INDEX approvalWorkflows_org_trigger ON approvalWorkflows(orgId, triggerType)`.execute(db);
  await sql`CREATE TABLE approvalRequests (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    workflowId TEXT NOT NULL REFERENCES approvalWorkflows(id) ON DELETE CASCADE,
    triggerType TEXT NOT NULL,
    targetType TEXT NOT NULL,
    targetId TEXT NOT NULL,
    targetLabel TEXT NOT NULL DEFAULT '',
    payload TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'pending',
    requestedById TEXT REFERENCES users(id) ON DELETE SET NULL,
    resolvedAt TEXT,
    createdAt TEXT NOT NULL
  ) STRICT`.execute(db);
  await sql`CREATE INDEX approvalRequests_org_status ON approvalRequests(orgId, status, createdAt)`.execute(db);
  await sql`CREATE INDEX approvalRequests_target ON approvalRequests(orgId, triggerType, targetId, status)`.execute(db);
  await sql`CREATE TABLE approvalDecisions (
    id TEXT PRIMARY KEY,
    requestId TEXT NOT NULL REFERENCES approvalRequests(id) ON DELETE CASCADE,
    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    decision TEXT NOT NULL,
    comment TEXT NOT NULL DEFAULT '',
    createdAt TEXT NOT NULL,
    UNIQUE (requestId, userId)
  ) STRICT`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP TABLE IF EXISTS approvalDecisions`.execute(db);
  await sql`DROP INDEX IF EXISTS approvalRequests_target`.execute(db);
  await sql`DROP INDEX IF EXISTS approvalRequests_org_status`.execute(db);
  await sql`DROP TABLE IF EXISTS approvalRequests`.execute(db);
  await sql`DROP INDEX IF EXISTS approvalWorkflows_org_trigger`.execute(db);
  await sql`DROP TABLE IF EXISTS approvalWorkflows`.execute(db);
}
