import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect, type Transaction } from "kysely";
import { migrations } from "./migrations/index";
import type { Database } from "./schema";

export type DB = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Anything that can run a query: the database or an open transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** Opens a SQLite file with the pragmas the app relies on. */
export function openSqlite(file: string) {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // WAL + NORMAL: a commit is durable once written to the WAL; a process
  // crash (SIGKILL, OOM) loses nothing acknowledged, a power loss may lose the
  // last commits but never corrupts (docs/operations.md, "Durability").
  sqlite.pragma("synchronous = NORMAL");
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
 * changed (see dataStamp in app/db.server.ts).
 */
export function cachedStatements(sqlite: SQLite.Database, max = 2000) {
  type Prepared = Pick<SQLite.Statement, "reader" | "all" | "run" | "iterate"> & { busy?: boolean };
  const cache = new Map<string, Prepared>();
  const counter = { writes: 0 };
  const wrap = (stmt: SQLite.Statement): Prepared =>
    stmt.reader
      ? stmt
      : {
          reader: false,
          all: stmt.all.bind(stmt),
          iterate: stmt.iterate.bind(stmt),
          run: (...params: unknown[]) => {
            counter.writes++;
            return stmt.run(...params);
          },
        };
  return {
    counter,
    prepare(sql: string) {
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements as never }) });
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
