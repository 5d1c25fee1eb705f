import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { Session, startServer, until, writeLoad, type ServerProcess } from "./server-process";

/**
 * Online backup: `npm run db:backup` runs while the built server
 * takes a concurrent write load; the backup is restored with
 * `npm run db:restore` into a fresh DATA_DIR, and a server started there
 * signs the same account in and lists every project acknowledged before the
 * backup began, with an intact database.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), "prd-backup-"));
const liveDir = path.join(root, "live");
const restoredDir = path.join(root, "restored");
const backupDir = path.join(root, "backups");
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const s of servers) s.child.kill("SIGKILL");
  fs.rmSync(root, { recursive: true, force: true });
});

const TSX = path.resolve("node_modules/.bin/tsx");

function run(script: string, args: string[], dataDir: string) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(TSX, [script, ...args], { env: { ...process.env, DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.once("exit", (code) => resolve({ code, out }));
  });
}

describe("backup under write load and the restore drill", () => {
  it("restores a backup taken under load to a working instance", async () => {
    fs.mkdirSync(liveDir);
    const live = await startServer(liveDir);
    servers.push(live);
    const email = `backup-${Date.now()}@example.com`;
    const password = "Backup-Drill-Works-1";
    const writer = new Session(live.baseUrl, "10.78.0.1");
    await writer.register(email, password);

    const load = writeLoad(writer, 6, "Backup");
    await until(() => load.acked.length >= 60, "60 acknowledged writes");
    const beforeBackup = [...load.acked];
    const backup = await run("scripts/backup.ts", [backupDir], liveDir);
    const duringBackup = load.acked.length - beforeBackup.length;
    // Writes keep being acknowledged after the backup, too.
    const ackedAtEnd = load.acked.length;
    await until(() => load.acked.length >= ackedAtEnd + 20, "writes after the backup");
    await load.stop();
    expect(load.failures).toEqual([]);
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain("integrity ok");
    expect(duringBackup, "writes acknowledged while the backup ran").toBeGreaterThan(0);

    const files = fs.readdirSync(backupDir);
    const dbFile = files.find((f) => /^app-.*\.db$/.test(f));
    expect(dbFile).toBeDefined();
    expect(files).toContain(dbFile!.replace(/\.db$/, ".secrets.json"));

    // Restoring over the running server is refused and changes nothing: its writes would go to the replaced file.
    const overLive = await run("scripts/restore.ts", [path.join(backupDir, dbFile!)], liveDir);
    expect(overLive.code, overLive.out).toBe(1);
    expect(overLive.out).toMatch(/the app is running on .* \(process \d+.*Stop it first, then restore; nothing was changed/);
    expect(fs.readdirSync(liveDir).filter((f) => f.includes("restore"))).toEqual([]);
    expect((await writer.call("GET", "/api/projects?limit=1")).status).toBe(200);
    await live.stop();
    // Stopped, it no longer claims the directory.
    expect(fs.existsSync(path.join(liveDir, "server.pid"))).toBe(false);

    // The drill: restore into a fresh DATA_DIR, start, sign in, read, write.
    const restore = await run("scripts/restore.ts", [path.join(backupDir, dbFile!)], restoredDir);
    expect(restore.code, restore.out).toBe(0);
    const restored = await startServer(restoredDir);
    servers.push(restored);
    const user = new Session(restored.baseUrl, "10.78.0.2");
    await user.signIn(email, password);
    const list = await user.call("GET", "/api/projects?limit=200");
    expect(list.status).toBe(200);
    const ids = new Set<string>();
    for (let offset = 0; offset < list.body.total; offset += 200) {
      const page = await user.call("GET", `/api/projects?limit=200&offset=${offset}`);
      for (const p of page.body.projects) ids.add(p.id);
    }
    expect(list.body.total).toBeGreaterThanOrEqual(beforeBackup.length);
    expect(list.body.total).toBeLessThanOrEqual(load.acked.length);
    expect(beforeBackup.filter((a) => !ids.has(a.id))).toEqual([]);
    const created = await user.call("POST", "/api/projects", { name: "After the restore" });
    expect(created.status).toBe(201);
    await restored.stop();

    const db = new SQLite(path.join(restoredDir, "app.db"), { readonly: true });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      db.close();
    }
  });
});
