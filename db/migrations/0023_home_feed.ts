import { sql, type Kysely } from "kysely";

// What the Home page reads (docs/ui.md, "Home"), each from an index that
// starts with the person, so the page costs the same with 10 projects or 10,000:
// - projectActivity_actor: a person's own latest changes ("Continue where you left off").
// - stakeholderViews_resolved: reviews decided lately, newest first (only decided rows are in it).
// - commentMentions: one row per (comment, mentioned user), kept in step with
//   comments.mentions by the triggers below (insert, and any update of the
//   column: edits re-resolve mentions, deletion empties them); a row goes
//   with its comment or its user (ON DELETE CASCADE). Only ids of existing
//   users are copied, so a write of a comment never fails on this table.
// Frozen: never edit after it has landed. Add a new numbered migration instead.

const STATEMENTS = [
  `CREATE INDEX projectActivity_actor ON projectActivity(actorId, createdAt)`,
  `CREATE INDEX stakeholderViews_resolved ON stakeholderViews(resolvedAt) WHERE resolvedAt IS NOT NULL`,
  `CREATE TABLE commentMentions (
    commentId TEXT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    createdAt TEXT NOT NULL,
    PRIMARY KEY (commentId, userId)
  ) STRICT, WITHOUT ROWID`,
  `CREATE INDEX commentMentions_user ON commentMentions(userId, createdAt)`,
  `CREATE TRIGGER comments_mentions_insert AFTER INSERT ON comments WHEN NEW.mentions <> '[]' BEGIN
     INSERT OR IGNORE INTO commentMentions (commentId, userId, createdAt)
       SELECT NEW.id, j.value, NEW.createdAt FROM json_each(NEW.mentions) AS j
       WHERE j.type = 'text' AND j.value IN (SELECT id FROM users);
   END`,
  `CREATE TRIGGER comments_mentions_update AFTER UPDATE OF mentions ON comments BEGIN
     DELETE FROM commentMentions WHERE commentId = NEW.id AND userId NOT IN (SELECT j.value FROM json_each(NEW.mentions) AS j);
     INSERT OR IGNORE INTO commentMentions (commentId, userId, createdAt)
       SELECT NEW.id, j.value, NEW.updatedAt FROM json_each(NEW.mentions) AS j
       WHERE j.type = 'text' AND j.value IN (SELECT id FROM users);
   END`,
  // The mentions already written.
  `INSERT OR IGNORE INTO commentMentions (commentId, userId, createdAt)
     SELECT c.id, j.value, c.createdAt FROM comments AS c, json_each(c.mentions) AS j
     WHERE c.mentions <> '[]' AND c.deletedAt IS NULL AND j.type = 'text' AND j.value IN (SELECT id FROM users)`,
];

export async function up(db: Kysely<unknown>) {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>) {
  for (const name of ["comments_mentions_update", "comments_mentions_insert"]) await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  await sql`DROP TABLE IF EXISTS commentMentions`.execute(db);
  await sql`DROP INDEX IF EXISTS stakeholderViews_resolved`.execute(db);
  await sql`DROP INDEX IF EXISTS projectActivity_actor`.execute(db);
}
