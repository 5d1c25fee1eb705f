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
  sqlite.pragma("synchronous = NORMAL");
  return sqlite;
}

export function createDb(file: string): { db: DB; sqlite: SQLite.Database } {
  const sqlite = openSqlite(file);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, sqlite };
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
