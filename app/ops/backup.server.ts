import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { ensurePrivateDir, ensurePrivateFile } from "#db/private-files";
import { dataDirHolder } from "./data-dir-claim.server";

/**
 * Online backup and restore of DATA_DIR/app.db (durability).
 *
 * A backup runs on its OWN read connection, so it works while the app (another
 * connection or another process) keeps writing: in WAL mode a reader never
 * blocks writers. The SQLite backup API copies every page in one step, i.e.
 * inside one read transaction, so the copy is a consistent snapshot of the
 * last committed state (copying in small steps would restart each time
 * another connection commits, and might never finish under a write load).
 * The copy is then opened and checked (`PRAGMA integrity_check`). The
 * generated secrets (secrets.json, holding ENCRYPTION_KEY when it is not set
 * in the environment) are copied beside it: without that key stored
 * integration tokens and provider keys cannot be read after a restore.
 *
 * These functions take paths, not the app's configuration, so the operator
 * scripts (scripts/backup.ts, scripts/restore.ts) and tests share them.
 */

export interface BackupResult {
  file: string;
  /** The copied secrets.json, when the data directory had one. */
  secretsFile: string | null;
  pages: number;
  bytes: number;
  ms: number;
}

/** The secrets file kept beside a backup: `app-2024….db` → `app-2024….secrets.json`. */
export function secretsFileFor(backupFile: string) {
  return backupFile.replace(/\.db$/, "") + ".secrets.json";
}

/** `PRAGMA integrity_check` of a database file; throws with SQLite's findings unless it is ok. */
export function verifyDatabase(file: string) {
  // Read-write: a file flagged for WAL cannot be opened read-only without its -shm.
  const check = new SQLite(file, { fileMustExist: true });
  try {
    const rows = check.pragma("integrity_check") as { integrity_check: string }[];
    const findings = rows.map((r) => r.integrity_check);
    if (findings.length !== 1 || findings[0] !== "ok") {
      throw new Error(`${file} failed the integrity check: ${findings.slice(0, 5).join("; ")}`);
    }
    check.prepare("SELECT count(*) FROM sqlite_schema").get();
  } finally {
    check.close();
  }
}

function fsyncFile(file: string) {
  const fd = fs.openSync(file, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncDir(dir: string) {
  try {
    fsyncFile(dir);
  } catch {
    /* some platforms cannot fsync a directory; the rename is still atomic */
  }
}

function removeQuietly(file: string) {
  fs.rmSync(file, { force: true });
}

/**
 * Copies the live database `source` to `destPath` (which must not exist yet),
 * verifies the copy and copies `secrets.json` from the source's directory.
 * Safe while the app writes. A failed backup (disk full...) leaves nothing behind.
 */
export async function backupDatabase(source: string, destPath: string): Promise<BackupResult> {
  const started = Date.now();
  const dest = path.resolve(destPath);
  if (fs.existsSync(dest)) throw new Error(`${dest} already exists; choose a new file name`);
  ensurePrivateDir(path.dirname(dest));
  const partial = `${dest}.partial`;
  removeQuietly(partial);
  // The copy holds everything the database does: 0600 like the original.
  ensurePrivateFile(partial);
  const reader = new SQLite(source, { fileMustExist: true });
  let pages = 0;
  try {
    reader.pragma("busy_timeout = 5000");
    // Step one reports the page count; step two copies them all in one read transaction.
    const progress = await reader.backup(partial, { progress: () => 0x7fffffff });
    pages = progress.totalPages;
  } catch (error) {
    for (const f of [partial, `${partial}-wal`, `${partial}-shm`, `${partial}-journal`]) removeQuietly(f);
    throw error;
  } finally {
    reader.close();
  }
  try {
    // The copy carries the source's WAL flag; make it one self-contained file.
    const copy = new SQLite(partial);
    copy.pragma("journal_mode = DELETE");
    copy.close();
    verifyDatabase(partial);
    fsyncFile(partial);
    fs.renameSync(partial, dest);
    fsyncDir(path.dirname(dest));
  } catch (error) {
    for (const f of [partial, `${partial}-wal`, `${partial}-shm`, `${partial}-journal`]) removeQuietly(f);
    throw error;
  }
  let secretsFile: string | null = null;
  const secrets = path.join(path.dirname(path.resolve(source)), "secrets.json");
  if (fs.existsSync(secrets)) {
    secretsFile = secretsFileFor(dest);
    fs.copyFileSync(secrets, secretsFile);
    fs.chmodSync(secretsFile, 0o600);
  }
  return { file: dest, secretsFile, pages, bytes: fs.statSync(dest).size, ms: Date.now() - started };
}

/** The backups `backupDatabase` made in `dir` (app-*.db), oldest first. */
export function listBackups(dir: string) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => /^app-.*\.db$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

/** Deletes all but the newest `keep` backups in `dir` (with their secrets files); returns what it removed. */
export function pruneBackups(dir: string, keep: number) {
  const all = listBackups(dir);
  const old = all.slice(0, Math.max(0, all.length - keep));
  for (const f of old) {
    removeQuietly(f);
    removeQuietly(secretsFileFor(f));
  }
  return old;
}

/** A sortable, file-name-safe timestamp: 2024-05-01T10-20-30-123Z. */
export function backupStamp(date = new Date()) {
  return date.toISOString().replace(/[:.]/g, "-");
}

export interface RestoreResult {
  database: string;
  secretsRestored: boolean;
  /** Where the replaced files were moved (nothing is deleted). */
  previous: string[];
}

/**
 * Puts `backupFile` in place as `dataDir/app.db`. THE APP MUST BE STOPPED:
 * a running server keeps its open connection to the replaced file.
 * The backup is integrity-checked first; the current app.db (with its -wal
 * and -shm) and secrets.json are kept as `*.pre-restore-<stamp>`; the copy is
 * written to a temporary file, fsynced and renamed over app.db, so a crash
 * mid-restore leaves either the old or the new database, never half of one.
 */
/** The restore would replace a database a running server holds: nothing was changed. */
export class DataDirInUse extends Error {}

export function restoreDatabase(backupFile: string, dataDir: string, options: { force?: boolean } = {}): RestoreResult {
  const backup = path.resolve(backupFile);
  if (!fs.existsSync(backup)) throw new Error(`${backup} does not exist`);
  const holder = options.force ? null : dataDirHolder(dataDir);
  if (holder) {
    // The server keeps its open database file: its writes after the swap would go to the replaced file and be lost.
    throw new DataDirInUse(
      holder.checkable
        ? `the app is running on ${dataDir} (process ${holder.pid}, started ${holder.startedAt}). Stop it first, then restore; nothing was changed.`
        : `${dataDir} is claimed by a server on host ${holder.host} (process ${holder.pid}, started ${holder.startedAt}), which cannot be checked from here. ` +
            "Stop it first; if it is not running, restore with --force. Nothing was changed.",
    );
  }
  ensurePrivateDir(dataDir);
  const target = path.join(dataDir, "app.db");
  const stamp = backupStamp();
  const tmp = `${target}.restore-tmp`;
  fs.copyFileSync(backup, tmp);
  try {
    verifyDatabase(tmp);
    fsyncFile(tmp);
  } catch (error) {
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) removeQuietly(f);
    throw error;
  }
  const previous: string[] = [];
  for (const suffix of ["", "-wal", "-shm"]) {
    const f = target + suffix;
    if (fs.existsSync(f)) {
      const kept = `${target}.pre-restore-${stamp}${suffix}`;
      fs.renameSync(f, kept);
      previous.push(kept);
    }
  }
  fs.renameSync(tmp, target);
  let secretsRestored = false;
  const secrets = secretsFileFor(backup);
  if (fs.existsSync(secrets)) {
    const live = path.join(dataDir, "secrets.json");
    if (fs.existsSync(live)) {
      const kept = `${live}.pre-restore-${stamp}`;
      fs.renameSync(live, kept);
      previous.push(kept);
    }
    fs.copyFileSync(secrets, live);
    fs.chmodSync(live, 0o600);
    secretsRestored = true;
  }
  fsyncDir(dataDir);
  return { database: target, secretsRestored, previous };
}
