import { sql, type Kysely } from "kysely";

// Frozen: never edit after it has landed. Add a new numbered migration instead.
// One send of stories to one tracker target at a time (docs/trackers.md,
// "Two sends at once"): a send holds a short lease on (project, service,
// target), renewed after each story, so two sends racing cannot both create
// an issue for the same story. An expired lease (a crashed send) is taken over.

export async function up(db: Kysely<unknown>) {
  await sql
    .raw(`CREATE TABLE trackerSendLocks (
    lockKey TEXT PRIMARY KEY,
    projectId TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    holder TEXT NOT NULL,
    expiresAt TEXT NOT NULL
  )`)
    .execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql.raw("DROP TABLE IF EXISTS trackerSendLocks").execute(db);
}
