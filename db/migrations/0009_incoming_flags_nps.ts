import { type Kysely, sql } from "kysely";

// Incoming webhooks, feature flags, NPS answers.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

const up_statements = [
  `CREATE TABLE incomingWebhooks (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    name TEXT NOT NULL,
    tokenHash TEXT NOT NULL UNIQUE,
    tokenPrefix TEXT NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('create_project','add_comment','notify_members')),
    config TEXT NOT NULL DEFAULT '{}',
    isActive INTEGER NOT NULL DEFAULT 1,
    lastEventAt TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX incomingWebhooks_org ON incomingWebhooks(orgId, createdAt)`,
  `CREATE TABLE incomingEvents (
    id TEXT PRIMARY KEY,
    endpointId TEXT NOT NULL REFERENCES incomingWebhooks(id) ON DELETE CASCADE,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    payload TEXT NOT NULL,
    contentType TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('processed','failed','ignored')),
    error TEXT,
    result TEXT,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX incomingEvents_endpoint ON incomingEvents(endpointId, createdAt)`,
  `CREATE TABLE featureFlags (
    key TEXT PRIMARY KEY,
    description TEXT NOT NULL DEFAULT '',
    enabled INTEGER NOT NULL DEFAULT 0,
    rolloutPercentage INTEGER CHECK (rolloutPercentage BETWEEN 0 AND 100),
    rules TEXT NOT NULL DEFAULT '{}',
    updatedById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE TABLE npsResponses (
    id TEXT PRIMARY KEY,
    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    orgId TEXT REFERENCES organizations(id) ON DELETE SET NULL,
    score INTEGER CHECK (score BETWEEN 0 AND 10),
    comment TEXT,
    dismissed INTEGER NOT NULL DEFAULT 0,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX npsResponses_user ON npsResponses(userId, createdAt)`,
];

export async function up(db: Kysely<unknown>) {
  for (const statement of up_statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>) {
  for (const table of ["npsResponses", "featureFlags", "incomingEvents", "incomingWebhooks"]) {
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
  }
}
