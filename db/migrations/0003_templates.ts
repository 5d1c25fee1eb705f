import { type Kysely, sql } from "kysely";

// Frozen: never edit after it has landed. Add a new numbered migration instead.
// Template versions and marketplace submissions (the templates table is in 0002).

const up_statements = [
  `CREATE TABLE templateVersions (
    id TEXT PRIMARY KEY,
    templateId TEXT NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    snapshot TEXT NOT NULL,
    note TEXT,
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    UNIQUE (templateId, number)
  ) STRICT`,
  `CREATE TABLE templateSubmissions (
    id TEXT PRIMARY KEY,
    templateId TEXT REFERENCES templates(id) ON DELETE SET NULL,
    templateName TEXT NOT NULL,
    orgId TEXT REFERENCES organizations(id) ON DELETE CASCADE,
    submitterId TEXT REFERENCES users(id) ON DELETE SET NULL,
    notes TEXT,
    status TEXT NOT NULL CHECK (status IN ('pending','approved','rejected')),
    reason TEXT,
    reviewedById TEXT REFERENCES users(id) ON DELETE SET NULL,
    reviewedAt TEXT,
    marketplaceTemplateId TEXT REFERENCES templates(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX templateSubmissions_submitter ON templateSubmissions(submitterId, createdAt)`,
  `CREATE INDEX templateSubmissions_status ON templateSubmissions(status, createdAt)`,
  `CREATE INDEX templates_public ON templates(visibility, isActive, usageCount)`,
  // A copy of a marketplace template keeps its system prompt hidden from its new owners.
  `ALTER TABLE templates ADD COLUMN promptProtected INTEGER NOT NULL DEFAULT 0`,
];

export async function up(db: Kysely<unknown>) {
  for (const statement of up_statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql.raw("DROP INDEX IF EXISTS templates_public").execute(db);
  for (const table of ["templateSubmissions", "templateVersions"]) {
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
  }
}
