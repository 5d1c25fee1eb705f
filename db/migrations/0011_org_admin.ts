import { type Kysely, sql } from "kysely";

// Organization settings, members, invitations, teams.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

const up_statements = [
  `CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    orgId TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    color TEXT,
    isArchived INTEGER NOT NULL DEFAULT 0 CHECK (isArchived IN (0, 1)),
    createdById TEXT REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  ) STRICT`,
  `CREATE INDEX teams_org ON teams(orgId, isArchived, name)`,
];

export async function up(db: Kysely<unknown>) {
  for (const statement of up_statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql.raw(`DROP TABLE IF EXISTS teams`).execute(db);
}
