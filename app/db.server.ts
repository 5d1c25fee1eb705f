import fs from "node:fs";
import { config } from "~/config.server";
import type { CompiledQuery } from "kysely";
import { createDb, type DB, type Executor } from "#db/client";
import { requestEpoch } from "~/utils/request-epoch";

export type { DB, Executor, Trx } from "#db/client";

/** A connection, numbered: a stamp names its connection, so a reopened database (a restore, another DATA_DIR) never matches a stamp taken on the one before. */
type Handle = ReturnType<typeof createDb> & { serial: number };
const globalStore = globalThis as unknown as { __dbHandles?: Map<string, Handle>; __dbSerial?: number };

/**
 * The one kysely instance over better-sqlite3, kept across dev reloads and
 * keyed by file so each test file's fresh DATA_DIR gets its own database.
 */
function handle(): Handle {
  globalStore.__dbHandles ??= new Map();
  const file = config().DATABASE_PATH;
  let h = globalStore.__dbHandles.get(file);
  if (!h) {
    h = { ...createDb(file), serial: (globalStore.__dbSerial = (globalStore.__dbSerial ?? 0) + 1) };
    globalStore.__dbHandles.set(file, h);
  }
  return h;
}

export const db: DB = new Proxy({} as DB, {
  get(_target, prop) {
    const real = handle().db as unknown as Record<PropertyKey, unknown>;
    const value = real[prop];
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(real) : value;
  },
});

export function sqlite() {
  return handle().sqlite;
}

interface VersionCache {
  stmt: { get(): unknown };
  version: unknown;
  epoch: number;
  valid: boolean;
  clearing: boolean;
}
const versions = new WeakMap<object, VersionCache>();

/**
 * A value that changes whenever the database may have changed: SQLite's
 * data_version (bumped when another connection or process, LiteFS
 * replication included, commits) with the count of writing statements this
 * process ran through kysely (db/client.ts; data_version never moves for
 * this connection's own commits). A writing statement is one SQLite does not
 * call read-only, so `INSERT/UPDATE/DELETE … RETURNING`, which better-sqlite3
 * runs as a reader, counts too. Results cached under a stamp are served only
 * while it holds, so no cache serves data older than the last write.
 * (total_changes() would also count the search stemmer's scratch writes to
 * the temp schema: 15–18 per keyword search, which would empty every cache
 * after each search; and it costs a native call per stamp where the counter
 * is a property read.)
 *
 * Reading data_version opens a read transaction (two fcntl locks); a request
 * asks three or four times (its API key, allowlist, flags, project). The
 * version read is reused until the next request arrives or the event loop
 * turns (app/utils/request-epoch.ts says why that never serves a commit a
 * client could have seen before asking); this process's own writes count
 * at once.
 */
export function dataStamp(): string {
  const h = handle();
  let c = versions.get(h.sqlite);
  if (!c) {
    c = { stmt: h.sqlite.prepare("PRAGMA data_version").pluck(), version: 0, epoch: -1, valid: false, clearing: false };
    versions.set(h.sqlite, c);
  }
  if (!c.valid || c.epoch !== requestEpoch.n) {
    c.version = c.stmt.get();
    c.epoch = requestEpoch.n;
    c.valid = true;
    if (!c.clearing) {
      c.clearing = true;
      const cache = c;
      setImmediate(() => {
        cache.valid = false;
        cache.clearing = false;
      });
    }
  }
  return `${h.serial}:${c.version}:${h.writes.writes}`;
}

const searchVersions = new WeakMap<object, { get(): unknown }>();

/**
 * The version of what a keyword search reads (the searchVersion row,
 * migration 0019): triggers bump it in every transaction that inserts,
 * updates or deletes a project, a PRD's content or a project collaborator,
 * whichever connection or process (LiteFS replication included) commits it.
 * Search results cached under it survive the writes that cannot change them
 * (comments, sessions, dispatched events). One indexed row read, about as
 * cheap as the data_version read of dataStamp.
 */
export function searchStamp(): string {
  const h = handle();
  let stmt = searchVersions.get(h.sqlite);
  if (!stmt) {
    stmt = h.sqlite.prepare("SELECT n FROM searchVersion WHERE id = 1").pluck();
    searchVersions.set(h.sqlite, stmt);
  }
  return `${h.serial}:${stmt.get()}`;
}

export async function closeDb() {
  const file = config().DATABASE_PATH;
  const h = globalStore.__dbHandles?.get(file);
  if (!h) return;
  globalStore.__dbHandles!.delete(file);
  await h.db.destroy();
}

/**
 * LiteFS writes `${LITEFS_DIR}/.primary` (holding the primary's hostname) on
 * replicas only. Read on every call: the primary can move.
 */
export function primaryInstance(): string | null {
  const dir = config().LITEFS_DIR;
  if (!dir) return null;
  try {
    return fs.readFileSync(`${dir}/.primary`, "utf8").trim();
  } catch {
    return null;
  }
}

export function isPrimary(): boolean {
  return primaryInstance() === null;
}

const SLOT = "\u0000slot:";

/**
 * A kysely query built and compiled once, then run with new values: for the
 * queries every request makes (authentication, project access, the PRD).
 * `build` gets named placeholders to use where values go; each run binds the
 * values by name, skipping the builder and the compiler. Works in
 * transactions (pass the executor).
 *
 *   const byId = compiledQuery((p: Slots<"id">) => db.selectFrom("projects").selectAll().where("id", "=", p.id));
 *   const { rows } = await byId({ id });
 */
export type Slots<P extends string> = Record<P, string>;
export function compiledQuery<P extends string, R>(build: (slots: Slots<P>) => { compile(): CompiledQuery<R> }) {
  let compiled: CompiledQuery<R> | undefined;
  let names: (P | null)[] = [];
  return (values: Record<P, unknown>, executor: Executor = db) => {
    if (!compiled) {
      const slots = new Proxy({} as Slots<P>, { get: (_t, name) => `${SLOT}${String(name)}` });
      compiled = build(slots).compile();
      names = compiled.parameters.map((p) => (typeof p === "string" && p.startsWith(SLOT) ? (p.slice(SLOT.length) as P) : null));
    }
    const parameters = compiled.parameters.map((p, i) => (names[i] ? values[names[i]!] : p));
    return executor.executeQuery<R>({ ...compiled, parameters });
  };
}
