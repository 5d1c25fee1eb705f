import { type Kysely, sql } from "kysely";

// Frozen: never edit after it has landed. Add a new numbered migration instead.
// A trigram index of comment text for the search page's comment results
// (a case-insensitive substring per word, `content LIKE '%word%'`): the
// matching comments come from the index instead of reading every comment of
// the organization (40 ms at 20,000 comments; docs/benchmarks.md, "Pages at
// 10,000 projects"). External content (the text stays in `comments` only),
// keyed by the comments' rowid; triggers keep it in step in the same
// transaction. `INSERT INTO commentText(commentText) VALUES('rebuild')`
// rebuilds it from `comments` (after a manual VACUUM, which may renumber rowids).

const up_statements = [
  `CREATE VIRTUAL TABLE commentText USING fts5(content, content = 'comments', content_rowid = 'rowid', tokenize = 'trigram', detail = 'none')`,
  `INSERT INTO commentText(commentText) VALUES ('rebuild')`,
  `CREATE TRIGGER commentText_insert AFTER INSERT ON comments
   BEGIN INSERT INTO commentText(rowid, content) VALUES (NEW.rowid, NEW.content); END`,
  `CREATE TRIGGER commentText_update AFTER UPDATE OF content ON comments
   BEGIN
     INSERT INTO commentText(commentText, rowid, content) VALUES ('delete', OLD.rowid, OLD.content);
     INSERT INTO commentText(rowid, content) VALUES (NEW.rowid, NEW.content);
   END`,
  `CREATE TRIGGER commentText_delete AFTER DELETE ON comments
   BEGIN INSERT INTO commentText(commentText, rowid, content) VALUES ('delete', OLD.rowid, OLD.content); END`,
];

export async function up(db: Kysely<unknown>) {
  for (const statement of up_statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>) {
  for (const name of ["commentText_insert", "commentText_update", "commentText_delete"]) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  }
  await sql.raw("DROP TABLE IF EXISTS commentText").execute(db);
}
