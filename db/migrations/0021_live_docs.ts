import { sql, type Kysely } from "kysely";

// Live editing of a PRD (docs/design/live-editing.md): per project, the Yjs
// document as a merged snapshot (`state`) plus the updates accepted since,
// one row each, written before the update is acknowledged. `versionId` is
// the PRD version the live document was last reconciled with; `dirty` says
// it holds edits not yet saved as a version. Compaction folds the update
// rows into the snapshot.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE prdLiveDocs (
    projectId TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    state BLOB NOT NULL,
    versionId TEXT,
    dirty INTEGER NOT NULL DEFAULT 0,
    updatedAt TEXT NOT NULL
  ) STRICT`.execute(db);
  await sql`CREATE TABLE prdLiveUpdates (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    data BLOB NOT NULL,
    clientId TEXT,
    userId TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL
  ) STRICT`.execute(db);
  await sql`CREATE INDEX prdLiveUpdates_project ON prdLiveUpdates(projectId, id)`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP TABLE IF EXISTS prdLiveUpdates`.execute(db);
  await sql`DROP TABLE IF EXISTS prdLiveDocs`.execute(db);
}
