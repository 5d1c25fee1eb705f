import type SQLite from "better-sqlite3";

/**
 * kysely's transactions, nested inside an outer transaction that a script
 * opened on the same connection (`BEGIN IMMEDIATE` … `COMMIT`): while one is
 * open, kysely's `begin` becomes a savepoint and its `commit` / `rollback`
 * release it or roll back to it. The demo seed (db/seed/demo/seed.ts) runs
 * all its domain calls, each with transactions of its own, this way: all or
 * nothing. Without an outer transaction nothing changes.
 *
 * kysely runs one transaction at a time on the connection (its driver holds
 * a lock from `begin` to `commit`), so a stack of how each began suffices.
 */

type Statement = Pick<SQLite.Statement, "reader" | "all" | "run" | "iterate">;

const SAVEPOINT = "kysely_nested";

export function nestedTransactions(sqlite: SQLite.Database) {
  const began: ("begin" | "savepoint")[] = [];
  // Prepared once each: a transaction's begin and commit stay as cheap as kysely's own.
  const prepared = new Map<string, SQLite.Statement>();
  const exec = (sql: string) => {
    let stmt = prepared.get(sql);
    if (!stmt) prepared.set(sql, (stmt = sqlite.prepare(sql)));
    return stmt.run();
  };
  const plain = (sql: string): Statement => {
    const run = () => exec(sql);
    return { reader: false, run, all: () => (run(), []), iterate: () => (run(), [][Symbol.iterator]()) } as unknown as Statement;
  };
  const begin = (): Statement => {
    const nested = sqlite.inTransaction;
    const statement = plain(nested ? `SAVEPOINT ${SAVEPOINT}` : "begin");
    const run = statement.run;
    statement.run = () => {
      const result = run();
      began.push(nested ? "savepoint" : "begin");
      return result;
    };
    return statement;
  };
  const end = (verb: "commit" | "rollback"): Statement => {
    const statement = plain(verb);
    statement.run = () => {
      const how = began.pop();
      if (how !== "savepoint") return exec(verb);
      if (verb === "rollback") exec(`ROLLBACK TO ${SAVEPOINT}`);
      return exec(`RELEASE ${SAVEPOINT}`);
    };
    return statement;
  };
  return {
    /** The statement for kysely's transaction control SQL, or null for any other SQL. */
    control(sql: string): Statement | null {
      if (sql === "begin") return begin();
      if (sql === "commit" || sql === "rollback") return end(sql);
      return null;
    },
  };
}

/**
 * Runs `work` in one transaction of `sqlite`: every kysely transaction inside
 * it becomes a savepoint, and a failure anywhere rolls everything back.
 */
export async function inOneTransaction<T>(sqlite: SQLite.Database, work: () => Promise<T>): Promise<T> {
  sqlite.exec("BEGIN IMMEDIATE");
  try {
    const result = await work();
    sqlite.exec("COMMIT");
    return result;
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    throw error;
  }
}
