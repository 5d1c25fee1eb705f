import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openSqlite } from "#db/client";
import { backupDatabase, listBackups, pruneBackups, restoreDatabase, secretsFileFor } from "~/ops/backup.server";

/** Backup and restore of a data directory, on files (app/ops/backup.server.ts). */

const root = fs.mkdtempSync(path.join(os.tmpdir(), "prd-backup-unit-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function dataDir(name: string, rows: number) {
  const dir = path.join(root, name);
  const conn = openSqlite(path.join(dir, "app.db"));
  conn.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
  const insert = conn.prepare("INSERT INTO notes (body) VALUES (?)");
  for (let i = 0; i < rows; i++) insert.run(`note ${i}`);
  fs.writeFileSync(path.join(dir, "secrets.json"), JSON.stringify({ encryptionKey: name }));
  return { dir, conn };
}
const rowsIn = (file: string) => {
  const conn = new SQLite(file, { readonly: true });
  try {
    return (conn.prepare("SELECT count(*) AS n FROM notes").get() as { n: number }).n;
  } finally {
    conn.close();
  }
};

describe("backupDatabase / restoreDatabase", () => {
  it("copies the committed state of a database in use, with its secrets, and restores it keeping the replaced files", async () => {
    const live = dataDir("live", 500);
    const file = path.join(root, "backups", "app-1.db");
    const result = await backupDatabase(path.join(live.dir, "app.db"), file);
    // The live connection keeps writing; the backup holds what was committed when it ran.
    live.conn.prepare("INSERT INTO notes (body) VALUES ('later')").run();
    expect(result.file).toBe(file);
    expect(rowsIn(file)).toBe(500);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(JSON.parse(fs.readFileSync(secretsFileFor(file), "utf8"))).toEqual({ encryptionKey: "live" });
    expect(fs.statSync(secretsFileFor(file)).mode & 0o777).toBe(0o600);
    await expect(backupDatabase(path.join(live.dir, "app.db"), file)).rejects.toThrow(/already exists/);

    const other = dataDir("other", 3);
    other.conn.close();
    const restored = restoreDatabase(file, other.dir);
    expect(restored.secretsRestored).toBe(true);
    expect(rowsIn(path.join(other.dir, "app.db"))).toBe(500);
    expect(JSON.parse(fs.readFileSync(path.join(other.dir, "secrets.json"), "utf8"))).toEqual({ encryptionKey: "live" });
    const kept = restored.previous.find((p) => /app\.db\.pre-restore-[^/]*Z$/.test(p));
    expect(kept).toBeDefined();
    expect(rowsIn(kept!)).toBe(3);
    live.conn.close();
  });

  it("refuses a damaged backup and leaves the data directory as it was", () => {
    const target = dataDir("target", 7);
    target.conn.close();
    const bad = path.join(root, "damaged.db");
    fs.writeFileSync(bad, "this is not a database".repeat(200));
    expect(() => restoreDatabase(bad, target.dir)).toThrow();
    expect(rowsIn(path.join(target.dir, "app.db"))).toBe(7);
    expect(fs.readdirSync(target.dir).filter((f) => f.includes("restore"))).toEqual([]);
    expect(() => restoreDatabase(path.join(root, "missing.db"), target.dir)).toThrow(/does not exist/);
  });

  it("keeps only the newest backups (with their secrets files)", async () => {
    const src = dataDir("many", 1);
    const dir = path.join(root, "rotation");
    for (const stamp of ["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04"]) {
      await backupDatabase(path.join(src.dir, "app.db"), path.join(dir, `app-${stamp}.db`));
    }
    src.conn.close();
    const removed = pruneBackups(dir, 2);
    expect(removed.map((f) => path.basename(f))).toEqual(["app-2024-01-01.db", "app-2024-01-02.db"]);
    expect(listBackups(dir).map((f) => path.basename(f))).toEqual(["app-2024-01-03.db", "app-2024-01-04.db"]);
    expect(fs.readdirSync(dir).sort()).toEqual(["app-2024-01-03.db", "app-2024-01-03.secrets.json", "app-2024-01-04.db", "app-2024-01-04.secrets.json"]);
  });
});
