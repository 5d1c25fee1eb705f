import fs from "node:fs";

/**
 * The data directory holds the database, its WAL, generated secrets and
 * backups: readable by the account that runs the app and nobody else.
 * Directories this process creates are 0700 and files 0600 (SQLite gives the
 * -wal and -shm files the database file's mode). Existing paths keep the mode
 * the operator gave them (a LiteFS mount, a shared backup group).
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export function ensurePrivateDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Creates `file` empty with mode 0600 when it does not exist yet (before SQLite opens it). */
export function ensurePrivateFile(file: string) {
  try {
    fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}
