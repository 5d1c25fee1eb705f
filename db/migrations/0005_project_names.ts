import { type Kysely, sql } from "kysely";

// Frozen: never edit after it has landed. Add a new numbered migration instead.
// A trigram index of project names, so the project list's name search
// (a case-insensitive substring, `name LIKE '%term%'`) reads the matching
// rows from an index instead of testing every project of the organization.
// Triggers keep it in step with `projects` in the same transaction.

const up_statements = [
  `CREATE VIRTUAL TABLE projectNames USING fts5(name, tokenize = 'trigram', detail = 'none')`,
  `INSERT INTO projectNames(rowid, name) SELECT seq, name FROM projects`,
  `CREATE TRIGGER projectNames_insert AFTER INSERT ON projects
   BEGIN INSERT INTO projectNames(rowid, name) VALUES (NEW.seq, NEW.name); END`,
  `CREATE TRIGGER projectNames_update AFTER UPDATE OF name ON projects
   BEGIN UPDATE projectNames SET name = NEW.name WHERE rowid = NEW.seq; END`,
  `CREATE TRIGGER projectNames_delete AFTER DELETE ON projects
   BEGIN DELETE FROM projectNames WHERE rowid = OLD.seq; END`,
];

export async function up(db: Kysely<unknown>) {
  for (const statement of up_statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>) {
  for (const name of ["projectNames_insert", "projectNames_update", "projectNames_delete"]) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${name}`).execute(db);
  }
  await sql.raw("DROP TABLE IF EXISTS projectNames").execute(db);
}
