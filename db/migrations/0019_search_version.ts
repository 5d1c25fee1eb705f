import { sql, type Kysely } from "kysely";

// A version number of what a keyword search reads: project rows
// (name, description, status, updatedAt, organization), PRD content and
// project collaborators (who may read a private project). Triggers bump it
// on every insert, update and delete of those tables, in the writing
// transaction, so ranked search results can be kept until the next such
// write instead of the next write of any kind (a comment, a session, a
// dispatched event). The FTS table itself is written only beside them.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

const WATCHED: [table: string, update: string][] = [
  ["projects", "UPDATE"],
  ["prds", "UPDATE OF content"],
  ["projectCollaborators", "UPDATE"],
];

export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE searchVersion (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL) STRICT`.execute(db);
  await sql`INSERT INTO searchVersion (id, n) VALUES (1, 0)`.execute(db);
  for (const [table, update] of WATCHED) {
    for (const [suffix, event] of [
      ["insert", "INSERT"],
      ["update", update],
      ["delete", "DELETE"],
    ]) {
      await sql
        .raw(`CREATE TRIGGER ${table}_${suffix}_search_version AFTER ${event} ON ${table} BEGIN UPDATE searchVersion SET n = n + 1 WHERE id = 1; END`)
        .execute(db);
    }
  }
}

export async function down(db: Kysely<unknown>) {
  for (const [table] of WATCHED) {
    for (const suffix of ["insert", "update", "delete"]) await sql.raw(`DROP TRIGGER IF EXISTS ${table}_${suffix}_search_version`).execute(db);
  }
  await sql`DROP TABLE IF EXISTS searchVersion`.execute(db);
}
