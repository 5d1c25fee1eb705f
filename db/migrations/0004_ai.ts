import { type Kysely, sql } from "kysely";

// Frozen: never edit after it has landed. Add a new numbered migration instead.
// The AI engine: provider keys (personal and organization), the builder's
// question/answer pairs, memories, project scores, saved AI outputs, the
// per-call usage log (ai_tokens metering) and PRD embeddings for semantic search.

const PROVIDERS = `('provider_a','provider_b','provider_c')`;

const up_statements = [
  `CREATE TABLE aiProviderKeys (
    id TEXT PRIMARY KEY,
    scope TEXT NOT NULL CHECK (scope IN ('user','organization')),
    userId TEXT REFERENCES users(id) ON DELETE CASCADE,
    orgId TEXT REFERENCES organizations(id) ON DELETE CASCADE,
    provider TEXT NOT NULL CHECK (provider IN ${PROVIDERS}),
    name TEXT,
    keyEncrypted TEXT NOT NULL,
    keyHint TEXT NOT NULL,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    lastUsedAt TEXT,
    createdAt TEXT NOT NULL,
    CHECK ((scope = 'user' AND userId IS NOT NULL AND orgId IS NULL) OR (scope = 'organization' AND orgId IS NOT NULL AND userId IS NULL))
  ) STRICT`,
  `CREATE UNIQUE INDEX aiProviderKeys_user ON aiProviderKeys(userId, provider) WHERE scope = 'user'`,
  `CREATE UNIQUE INDEX aiProviderKeys_org ON aiProviderKeys(orgId, provider) WHERE scope = 'organization'`,
  `CREATE TABLE projectQaPairs (
    id TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    userId TEXT REFERENCES users(id) ON DELETE SET NULL,
    position INTEGER NOT NULL,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    response TEXT NOT NULL,
    nextQuestion TEXT,
    model TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    UNIQUE (projectId, position)
  ) STRICT`,
  `CREATE TABLE memories (
    id TEXT PRIMARY KEY,
    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    memoryType TEXT NOT NULL CHECK (memoryType IN ('preference','decision','project_context','feedback')),
    category TEXT NOT NULL CHECK (category IN ('technical','business','process','style','team')),
    content TEXT NOT NULL,
    summary TEXT NOT NULL,
    importance INTEGER NOT NULL CHECK (importance BETWEEN 1 AND 10),
    isActive INTEGER NOT NULL DEFAULT 1,
    sourceProjectId TEXT REFERENCES projects(id) ON DELETE SET NULL,
    sourceConversation TEXT,
    lastUsedAt TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX memories_user ON memories(userId, isActive, importance DESC, lastUsedAt DESC)`,
  `CREATE TABLE projectScores (
    id TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    overallScore INTEGER NOT NULL,
    breakdown TEXT NOT NULL,
    feedback TEXT NOT NULL,
    prdVersionId TEXT,
    model TEXT NOT NULL,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX projectScores_project ON projectScores(projectId, createdAt)`,
  `CREATE TABLE aiOutputs (
    id TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    variant TEXT,
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    data TEXT,
    model TEXT NOT NULL,
    truncated INTEGER NOT NULL DEFAULT 0,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX aiOutputs_project ON aiOutputs(projectId, kind, createdAt)`,
  `CREATE TABLE aiCalls (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    userId TEXT REFERENCES users(id) ON DELETE SET NULL,
    projectId TEXT REFERENCES projects(id) ON DELETE SET NULL,
    task TEXT NOT NULL,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    keySource TEXT NOT NULL CHECK (keySource IN ('personal','organization','platform','builtin')),
    inputTokens INTEGER NOT NULL DEFAULT 0,
    outputTokens INTEGER NOT NULL DEFAULT 0,
    outcome TEXT NOT NULL CHECK (outcome IN ('ok','truncated','error','aborted','invalid')),
    durationMs INTEGER NOT NULL,
    createdAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX aiCalls_org ON aiCalls(orgId, createdAt)`,
  `CREATE TABLE projectEmbeddings (
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    contentHash TEXT NOT NULL,
    dims INTEGER NOT NULL,
    vector BLOB NOT NULL,
    updatedAt TEXT NOT NULL,
    PRIMARY KEY (projectId, model)
  ) STRICT, WITHOUT ROWID`,
  `CREATE INDEX projectEmbeddings_org ON projectEmbeddings(orgId, model)`,
];

export async function up(db: Kysely<unknown>) {
  for (const statement of up_statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>) {
  for (const table of ["projectEmbeddings", "aiCalls", "aiOutputs", "projectScores", "memories", "projectQaPairs", "aiProviderKeys"]) {
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
  }
}
