import type SQLite from "better-sqlite3";
import {
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  SqliteDialect,
  type SqliteDialectConfig,
  type SqliteDriver,
  type TransactionSettings,
} from "kysely";

/**
 * kysely's SQLite dialect with transactions that fail with what made them
 * fail. On some errors SQLite rolls the whole transaction back itself
 * instead of only the failing statement: SQLITE_FULL from a real full disk
 * (ENOSPC while the WAL grows), SQLITE_IOERR, SQLITE_NOMEM, a trigger's
 * RAISE(ROLLBACK). kysely then sends its own ROLLBACK, which fails with
 * "cannot rollback - no transaction is active", and that error replaced the
 * real one: a full disk answered 500 instead of 503 STORAGE_FULL.
 *
 * This driver notices when a statement inside a transaction ended it
 * (`sqlite.inTransaction` turned false) and keeps that error:
 *
 * - kysely's ROLLBACK failing because no transaction is open is ignored,
 *   so the caller's error propagates unchanged;
 * - every later statement of the same transaction (code that caught the
 *   error and went on, a `ROLLBACK TO` savepoint) and its COMMIT fail with
 *   the kept error instead of running outside any transaction, where each
 *   would commit on its own and leave the work half-written.
 *
 * SQLite has one connection per Kysely instance and kysely holds it for the
 * whole transaction, so one state per driver is enough.
 */
export class GuardedSqliteDialect extends SqliteDialect {
  readonly #sqlite: SQLite.Database;

  constructor(config: SqliteDialectConfig, sqlite: SQLite.Database) {
    super(config);
    this.#sqlite = sqlite;
  }

  override createDriver(): Driver {
    return new TransactionDriver(super.createDriver() as SqliteDriver, this.#sqlite);
  }
}

type CompileQuery = QueryCompiler["compileQuery"];

class TransactionDriver implements Driver {
  readonly #inner: SqliteDriver;
  readonly #sqlite: SQLite.Database;
  /** A transaction begun through kysely is open (as far as kysely knows). */
  #open = false;
  /** The error with which SQLite ended the open transaction itself. */
  #lost: { error: unknown } | undefined;
  readonly #guarded = new WeakMap<DatabaseConnection, DatabaseConnection>();
  readonly #raw = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(inner: SqliteDriver, sqlite: SQLite.Database) {
    this.#inner = inner;
    this.#sqlite = sqlite;
  }

  init() {
    return this.#inner.init();
  }

  async acquireConnection() {
    const raw = await this.#inner.acquireConnection();
    let guarded = this.#guarded.get(raw);
    if (!guarded) {
      guarded = {
        executeQuery: async (query) => {
          this.#throwIfLost();
          try {
            return await raw.executeQuery(query);
          } catch (error) {
            if (this.#open && !this.#sqlite.inTransaction) this.#lost = { error };
            throw error;
          }
        },
        streamQuery: (query, chunkSize) => {
          this.#throwIfLost();
          return raw.streamQuery(query, chunkSize);
        },
      };
      this.#guarded.set(raw, guarded);
      this.#raw.set(guarded, raw);
    }
    return guarded;
  }

  #throwIfLost() {
    if (this.#lost) throw this.#lost.error;
  }

  #unwrap(connection: DatabaseConnection) {
    return this.#raw.get(connection) ?? connection;
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings) {
    // SQLite has no isolation levels or access modes to set: kysely's own driver ignores them too.
    await this.#inner.beginTransaction(this.#unwrap(connection));
    this.#open = true;
    this.#lost = undefined;
  }

  async commitTransaction(connection: DatabaseConnection) {
    this.#throwIfLost();
    await this.#inner.commitTransaction(this.#unwrap(connection));
    this.#open = false;
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    this.#open = false;
    this.#lost = undefined;
    const ended = !this.#sqlite.inTransaction;
    const rollback = this.#inner.rollbackTransaction(this.#unwrap(connection));
    // SQLite already rolled it back, and the error that did it is what the caller throws. The ROLLBACK
    // still goes down (the layer under kysely keeps a stack of open transactions, db/nested-transactions.ts);
    // its "no transaction is active" is dropped.
    if (ended) await rollback.catch(() => {});
    else await rollback;
  }

  async savepoint(connection: DatabaseConnection, name: string, compileQuery: CompileQuery) {
    this.#throwIfLost();
    await this.#inner.savepoint(this.#unwrap(connection), name, compileQuery);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compileQuery: CompileQuery) {
    this.#throwIfLost();
    await this.#inner.rollbackToSavepoint(this.#unwrap(connection), name, compileQuery);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compileQuery: CompileQuery) {
    this.#throwIfLost();
    await this.#inner.releaseSavepoint(this.#unwrap(connection), name, compileQuery);
  }

  releaseConnection(_connection: DatabaseConnection) {
    return this.#inner.releaseConnection();
  }

  destroy() {
    return this.#inner.destroy();
  }
}
