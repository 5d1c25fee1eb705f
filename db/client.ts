import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, type Transaction } from "kysely";
import { migrations } from "./migrations/index";
import { nestedTransactions } from "./nested-transactions";
import { ensurePrivateDir, ensurePrivateFile } from "./private-files";
import type { Database } from "./schema";
import { GuardedSqliteDialect } from "./transaction-driver";

export type DB = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Anything that can run a query: the database or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** Opens a SQLite file with the pragmas the app relies on. */
export function openSqlite(file: string) {
  if (file !== ":memory:") {
    ensurePrivateDir(path.dirname(file));
    ensurePrivateFile(file);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // WAL + FULL: every commit fsyncs the WAL before it returns, so a write the
  // app acknowledged survives a power loss or kernel crash, not only a process
  // crash (NORMAL leaves the WAL to the page cache until the next checkpoint).
  // better-sqlite3 builds with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1 (NORMAL), so
  // it is set here, for every connection the app and its scripts open. The
  // cost in write throughput: docs/benchmarks.md, "Durable commits".
  sqlite.pragma("synchronous = FULL");
  // Checkpoint after 1000 pages (SQLite's default, stated), and cut the WAL
  // back to 64 MB when it is reset after a long reader let it grow.
  sqlite.pragma("wal_autocheckpoint = 1000");
  sqlite.pragma("journal_size_limit = 67108864");
  return sqlite;
}

/**
 * better-sqlite3 behind a prepared-statement cache. kysely prepares the SQL
 * of every query it runs; preparing costs more than running a small indexed
 * query, and an app has a bounded set of distinct SQL texts, so each text is
 * prepared once and reused (bound parameters differ per call). The cache is
 * bounded; the oldest entry goes first.
 *
 * It also counts the writing statements kysely runs through it (`writes`),
 * which with SQLite's data_version tells whether the database may have
 * changed (see dataStamp in app/db.server.ts). A statement is a write when
 * SQLite says it may change the database (`stmt.readonly` is false,
 * sqlite3_stmt_readonly), decided once when it is prepared: INSERT, UPDATE,
 * DELETE and REPLACE, with or without RETURNING, behind a WITH or not.
 * (`stmt.reader` only says whether it returns rows: `UPDATE … RETURNING` is
 * a reader, and kysely runs it with `all`.) Every way of running a write
 * counts, before it runs; reads pass through unwrapped and cost nothing.
 */
export function cachedStatements(sqlite: SQLite.Database, max = 2000) {
  type Prepared = Pick<SQLite.Statement, "reader" | "all" | "run" | "iterate"> & { readonly busy?: boolean };
  const cache = new Map<string, Prepared>();
  const counter = { writes: 0 };
  const transactions = nestedTransactions(sqlite);
  const wrap = (stmt: SQLite.Statement): Prepared => {
    if (stmt.readonly) return stmt;
    return {
      reader: stmt.reader,
      get busy() {
        return stmt.busy;
      },
      all: (...params: unknown[]) => {
        counter.writes++;
        return stmt.all(...params);
      },
      iterate: (...params: unknown[]) => {
        counter.writes++;
        return stmt.iterate(...params);
      },
      run: (...params: unknown[]) => {
        counter.writes++;
        return stmt.run(...params);
      },
    };
  };
  return {
    counter,
    prepare(sql: string) {
      const control = transactions.control(sql);
      if (control) return control;
      let stmt = cache.get(sql);
      // A statement still iterating (kysely's streaming) cannot be shared: prepare a fresh one.
      if (stmt?.busy) return wrap(sqlite.prepare(sql));
      if (!stmt) {
        stmt = wrap(sqlite.prepare(sql));
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}

export function createDb(file: string): { db: DB; sqlite: SQLite.Database; writes: { writes: number } } {
  const sqlite = openSqlite(file);
  const statements = cachedStatements(sqlite);
  // Transactions SQLite rolled back itself (a full disk) fail with SQLite's error, not kysely's ROLLBACK's (./transaction-driver.ts).
  const db = new Kysely<Database>({ dialect: new GuardedSqliteDialect({ database: statements as never }, sqlite) });
  return { db, sqlite, writes: statements.counter };
}

export async function migrateToLatest(db: Kysely<any>) {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
  return results?.filter((r) => r.status === "Success").map((r) => r.migrationName) ?? [];
}
