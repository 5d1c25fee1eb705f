import { type Kysely, sql } from "kysely";

// Frozen: never edit after it has landed. Add a new numbered migration instead.

const up_statements = [
  `CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name TEXT NOT NULL,
    passwordHash TEXT,
    emailVerifiedAt TEXT,
    timezone TEXT NOT NULL DEFAULT 'UTC',
    failedSignInCount INTEGER NOT NULL DEFAULT 0,
    firstFailedSignInAt TEXT,
    lockedUntil TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE TABLE organizations (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    slug TEXT NOT NULL UNIQUE,
    plan TEXT NOT NULL CHECK (plan IN ('free','starter','pro','enterprise')),
    settings TEXT NOT NULL DEFAULT '{}',
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE TABLE memberships (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('owner','admin','member','viewer')),
    createdAt TEXT NOT NULL,
    UNIQUE (orgId, userId)
  ) STRICT`,
  `CREATE INDEX memberships_user ON memberships(userId)`,
  `CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    expiresAt TEXT NOT NULL,
    ip TEXT,
    userAgent TEXT,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX sessions_user ON sessions(userId)`,
  `CREATE TABLE oneTimeTokens (
    id TEXT PRIMARY KEY,
    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose TEXT NOT NULL CHECK (purpose IN ('password_reset','email_verification')),
    tokenHash TEXT NOT NULL UNIQUE,
    expiresAt TEXT NOT NULL,
    usedAt TEXT,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX oneTimeTokens_user ON oneTimeTokens(userId, purpose)`,
  `CREATE TABLE invitations (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    email TEXT NOT NULL COLLATE NOCASE,
    role TEXT NOT NULL CHECK (role IN ('admin','member','viewer')),
    message TEXT,
    tokenHash TEXT NOT NULL UNIQUE,
    invitedById TEXT REFERENCES users(id) ON DELETE SET NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','accepted','cancelled')),
    expiresAt TEXT NOT NULL,
    acceptedAt TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX invitations_org ON invitations(orgId, status)`,
  `CREATE TABLE apiKeys (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    keyHash TEXT NOT NULL UNIQUE,
    rateLimit INTEGER,
    expiresAt TEXT,
    lastUsedAt TEXT,
    revokedAt TEXT,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX apiKeys_org ON apiKeys(orgId, revokedAt)`,
  `CREATE TABLE auditLogs (
    id TEXT PRIMARY KEY,
    orgId TEXT REFERENCES organizations(id) ON DELETE CASCADE,
    actorId TEXT REFERENCES users(id) ON DELETE SET NULL,
    actorEmail TEXT,
    action TEXT NOT NULL,
    category TEXT NOT NULL,
    severity TEXT NOT NULL CHECK (severity IN ('info','warning','critical')),
    targetType TEXT,
    targetId TEXT,
    ip TEXT,
    userAgent TEXT,
    metadata TEXT NOT NULL DEFAULT '{}',
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX auditLogs_org ON auditLogs(orgId, createdAt)`,
  `CREATE TABLE emails (
    id TEXT PRIMARY KEY,
    orgId TEXT REFERENCES organizations(id) ON DELETE SET NULL,
    toAddress TEXT NOT NULL,
    subject TEXT NOT NULL,
    text TEXT NOT NULL,
    html TEXT,
    kind TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued','sent','outbox','failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    lastError TEXT,
    sentAt TEXT,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX emails_org ON emails(orgId, createdAt)`,
  `CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    payload TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL CHECK (status IN ('queued','running','done','failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    maxAttempts INTEGER NOT NULL DEFAULT 6,
    runAt TEXT NOT NULL,
    lockedAt TEXT,
    lastError TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX jobs_due ON jobs(status, runAt)`,
  `CREATE TABLE events (
    id TEXT PRIMARY KEY,
    orgId TEXT,
    name TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '{}',
    actorId TEXT,
    createdAt TEXT NOT NULL,
    processedAt TEXT
  ) STRICT`,
  `CREATE INDEX events_pending ON events(processedAt, createdAt)`,
];

export async function up(db: Kysely<unknown>) {
  for (const statement of up_statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>) {
  for (const table of [
    "events",
    "jobs",
    "emails",
    "auditLogs",
    "apiKeys",
    "invitations",
    "oneTimeTokens",
    "sessions",
    "memberships",
    "organizations",
    "users",
  ]) {
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
  }
}
