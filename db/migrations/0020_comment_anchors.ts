import { sql, type Kysely } from "kysely";

// Comments anchored on a passage of the PRD, and resolvable threads
// (docs/collaboration.md, "Anchors" and "Resolving"). `quote` is the passage
// as a reader sees it (rendered text, not Markdown), `quotePrefix` and
// `quoteSuffix` the text just around it; whether it is still in the PRD is
// worked out when comments are read. `resolvedAt`/`resolvedBy` are set on a
// thread's top-level comment only.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE comments ADD COLUMN quote TEXT`.execute(db);
  await sql`ALTER TABLE comments ADD COLUMN quotePrefix TEXT`.execute(db);
  await sql`ALTER TABLE comments ADD COLUMN quoteSuffix TEXT`.execute(db);
  await sql`ALTER TABLE comments ADD COLUMN resolvedAt TEXT`.execute(db);
  await sql`ALTER TABLE comments ADD COLUMN resolvedBy TEXT REFERENCES users(id) ON DELETE SET NULL`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  for (const column of ["resolvedBy", "resolvedAt", "quoteSuffix", "quotePrefix", "quote"]) {
    await sql.raw(`ALTER TABLE comments DROP COLUMN ${column}`).execute(db);
  }
}
