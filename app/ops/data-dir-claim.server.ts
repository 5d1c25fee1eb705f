import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Which server process is using a data directory: the server writes
 * DATA_DIR/server.pid when it starts and removes it when it stops, so the
 * operator scripts that must not run beside it (`npm run db:restore`) can
 * refuse instead of swapping the database under a live process (whose writes
 * meanwhile would be lost with the replaced file). A file left by a crashed
 * process names a pid that no longer runs, and counts for nothing.
 */

const FILE = "server.pid";

export interface DataDirHolder {
  pid: number;
  host: string;
  startedAt: string;
  /** False when the file was written on another host (a shared volume): whether that process runs cannot be checked from here. */
  checkable: boolean;
}

export function claimDataDir(dataDir: string) {
  fs.mkdirSync(dataDir, { recursive: true });
  const holder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  fs.writeFileSync(path.join(dataDir, FILE), `${JSON.stringify(holder)}\n`, { mode: 0o600 });
}

/** Removes the claim, if it is this process's own. */
export function releaseDataDir(dataDir: string) {
  const file = path.join(dataDir, FILE);
  if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
}

function readHolder(file: string): Omit<DataDirHolder, "checkable"> | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<DataDirHolder>;
    if (!Number.isSafeInteger(parsed.pid) || typeof parsed.host !== "string") return null;
    return { pid: parsed.pid!, host: parsed.host, startedAt: String(parsed.startedAt ?? "") };
  } catch {
    return null;
  }
}

function isRunning(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, run by another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The server process using `dataDir`, or null when none is (no claim, or one left by a process that has ended). */
export function dataDirHolder(dataDir: string): DataDirHolder | null {
  const holder = readHolder(path.join(dataDir, FILE));
  if (!holder) return null;
  if (holder.host !== os.hostname()) return { ...holder, checkable: false };
  return isRunning(holder.pid) ? { ...holder, checkable: true } : null;
}
