import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirInUse, restoreDatabase } from "~/ops/backup.server";
import { claimDataDir, dataDirHolder, releaseDataDir } from "~/ops/data-dir-claim.server";

/**
 * `npm run db:restore` against a running server: the server claims its data
 * directory (DATA_DIR/server.pid) while it runs, and the restore refuses to
 * swap the database under it, changing nothing, unless forced. A claim left
 * by a crashed process does not block it.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), "prd-restore-guard-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  fs.rmSync(root, { recursive: true, force: true });
});

function database(dir: string, rows: number) {
  fs.mkdirSync(dir, { recursive: true });
  const conn = new SQLite(path.join(dir, "app.db"));
  conn.exec("CREATE TABLE notes (body TEXT)");
  for (let i = 0; i < rows; i++) conn.prepare("INSERT INTO notes (body) VALUES (?)").run(`n${i}`);
  conn.close();
}
const rowsIn = (dir: string) => {
  const conn = new SQLite(path.join(dir, "app.db"), { readonly: true });
  try {
    return (conn.prepare("SELECT count(*) AS n FROM notes").get() as { n: number }).n;
  } finally {
    conn.close();
  }
};

/** A stand-in for a running server: a live process whose pid the claim names. */
function runningProcess() {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  children.push(child);
  return child;
}
const claimFor = (dir: string, pid: number, host = os.hostname()) =>
  fs.writeFileSync(path.join(dir, "server.pid"), JSON.stringify({ pid, host, startedAt: "2026-12-01T10:00:00.000Z" }));

const backup = path.join(root, "backup");
database(backup, 42);
const backupFile = path.join(backup, "app.db");

describe("restore while the app runs", () => {
  it("refuses while a running server claims the directory, changing nothing; once it has stopped, restores", async () => {
    const dir = path.join(root, "live");
    database(dir, 3);
    const server = runningProcess();
    claimFor(dir, server.pid!);
    expect(() => restoreDatabase(backupFile, dir)).toThrow(DataDirInUse);
    expect(() => restoreDatabase(backupFile, dir)).toThrow(new RegExp(`process ${server.pid}.*Stop it first`));
    expect(rowsIn(dir)).toBe(3);
    expect(fs.readdirSync(dir).filter((f) => f.includes("restore"))).toEqual([]);

    server.kill("SIGKILL");
    await new Promise((resolve) => server.once("exit", resolve));
    // The claim is left behind, as a crash leaves it; it names a process that has ended.
    expect(dataDirHolder(dir)).toBeNull();
    restoreDatabase(backupFile, dir);
    expect(rowsIn(dir)).toBe(42);
  });

  it("refuses a claim from another host (a shared volume) unless forced", () => {
    const dir = path.join(root, "shared");
    database(dir, 5);
    claimFor(dir, 1, "another-machine");
    expect(() => restoreDatabase(backupFile, dir)).toThrow(/host another-machine.*--force/);
    expect(rowsIn(dir)).toBe(5);
    restoreDatabase(backupFile, dir, { force: true });
    expect(rowsIn(dir)).toBe(42);
  });

  it("the server's own claim is its pid, and is removed when it stops", () => {
    const dir = path.join(root, "own");
    claimDataDir(dir);
    expect(dataDirHolder(dir)).toMatchObject({ pid: process.pid, host: os.hostname(), checkable: true });
    releaseDataDir(dir);
    expect(dataDirHolder(dir)).toBeNull();
    expect(fs.existsSync(path.join(dir, "server.pid"))).toBe(false);
  });

  it("npm run db:restore exits 1 and says why, with nothing changed", () => {
    const dir = path.join(root, "script");
    database(dir, 2);
    const server = runningProcess();
    claimFor(dir, server.pid!);
    const run = spawnSync(path.resolve("node_modules/.bin/tsx"), ["scripts/restore.ts", backupFile], {
      env: { ...process.env, DATA_DIR: dir },
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`Restore failed: the app is running on ${dir} (process ${server.pid}`);
    expect(rowsIn(dir)).toBe(2);
  });
});
