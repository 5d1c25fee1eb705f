import { sql, type Kysely } from "kysely";

// Slack (docs/integrations.md, "Slack"): one workspace connection per
// organization (bot token encrypted at rest), where its messages go (a default
// channel, one per event kind, one per project), and one delivery row per
// (event, channel) so a message is never posted twice.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

const STATEMENTS = [
  `CREATE TABLE slackConnections (
    orgId TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    teamId TEXT NOT NULL,
    teamName TEXT NOT NULL,
    botUserId TEXT,
    accessToken TEXT NOT NULL,
    scopes TEXT,
    connectedById TEXT REFERENCES users(id) ON DELETE SET NULL,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'needs_reconnect')),
    lastError TEXT,
    lastErrorAt TEXT,
    defaultChannelId TEXT,
    defaultChannelName TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE TABLE slackEventChannels (
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    channelId TEXT NOT NULL,
    channelName TEXT NOT NULL,
    PRIMARY KEY (orgId, kind)
  ) STRICT, WITHOUT ROWID`,
  `CREATE TABLE slackProjectChannels (
    projectId TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    channelId TEXT NOT NULL,
    channelName TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX slackProjectChannels_org ON slackProjectChannels(orgId)`,
  `CREATE TABLE slackDeliveries (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    eventKey TEXT NOT NULL,
    kind TEXT NOT NULL,
    channelId TEXT NOT NULL,
    message TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    messageTs TEXT,
    lastError TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    UNIQUE (orgId, eventKey, channelId)
  ) STRICT`,
];

export async function up(db: Kysely<unknown>) {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>) {
  for (const table of ["slackDeliveries", "slackProjectChannels", "slackEventChannels", "slackConnections"])
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
}
