import fs from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type SQLite from "better-sqlite3";
import { config } from "~/config.server";
import { sqlite } from "~/db.server";
import type { Tick } from "~/jobs/types";

/**
 * Keeps the write-ahead log bounded under sustained writes.
 *
 * SQLite checkpoints on its own after a commit once the WAL holds 1000 pages
 * (`wal_autocheckpoint`), but a checkpoint cannot move past a reader's
 * snapshot, so a long read lets the WAL grow, and the file never shrinks by
 * itself: it is reused from the start. `journal_size_limit` (db/client.ts)
 * truncates it when it is reset; this tick, every 5 minutes on the primary,
 * runs `wal_checkpoint(TRUNCATE)`, which copies everything back into app.db
 * and cuts the WAL to zero bytes. It never waits for readers: with
 * busy_timeout 0 a checkpoint that a reader holds back reports `busy` and the
 * next tick tries again (waiting would block the server's event loop).
 * The tick runs in a worker thread with its own connection:
 * copying a WAL that a long reader let grow back into app.db is tens of
 * milliseconds per 100 MB, which the event loop does not wait for.
 */

export interface CheckpointResult {
  /** 1 when a reader or writer kept the checkpoint from completing. */
  busy: number;
  /** Frames in the WAL before the checkpoint, and how many were copied back. */
  log: number;
  checkpointed: number;
  /** Size of the -wal file afterwards, in bytes (0 when absent). */
  walBytes: number;
}

export function walBytes(file: string) {
  try {
    return fs.statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

export function checkpointWal(connection: SQLite.Database = sqlite()): CheckpointResult {
  const previous = connection.pragma("busy_timeout", { simple: true }) as number;
  connection.pragma("busy_timeout = 0");
  try {
    const [row] = connection.pragma("wal_checkpoint(TRUNCATE)") as { busy: number; log: number; checkpointed: number }[];
    return { busy: row!.busy, log: row!.log, checkpointed: row!.checkpointed, walBytes: walBytes(connection.name) };
  } finally {
    connection.pragma(`busy_timeout = ${Number(previous) || 0}`);
  }
}

/** The program of the checkpoint thread: one connection, one TRUNCATE checkpoint that never waits, one answer. */
const CHECKPOINT_SCRIPT = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.file, { fileMustExist: true });
  db.pragma("busy_timeout = 0");
  const [row] = db.pragma("wal_checkpoint(TRUNCATE)");
  parentPort.postMessage(row);
} catch (error) {
  parentPort.postMessage({ error: String((error && error.message) || error) });
} finally {
  if (db) db.close();
}`;

/** `wal_checkpoint(TRUNCATE)` of the app's database, run in a worker thread on a connection of its own. */
export function checkpointOffThread(file = config().DATABASE_PATH): Promise<CheckpointResult> {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  return new Promise((resolve, reject) => {
    const worker = new Worker(CHECKPOINT_SCRIPT, { eval: true, workerData: { driver, file } });
    worker.once("message", (row: { busy: number; log: number; checkpointed: number } | { error: string }) => {
      if ("error" in row) reject(new Error(`WAL checkpoint failed: ${row.error}`));
      else resolve({ busy: row.busy, log: row.log, checkpointed: row.checkpointed, walBytes: walBytes(file) });
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`The checkpoint thread stopped (exit code ${code})`)));
  });
}

/** The scheduler tick (listed in app/jobs/handlers.server.ts; runs on the primary only). */
export const walCheckpointTick: Tick = {
  name: "wal-checkpoint",
  pattern: "*/5 * * * *",
  run: async () => {
    const result = await checkpointOffThread();
    if (result.busy) console.warn(`[db] WAL checkpoint held back by a reader (${result.log} frames); retrying at the next tick`);
  },
};
