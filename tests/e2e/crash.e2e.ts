import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { Session, startServer, until, writeLoad, type ServerProcess } from "./server-process";

/**
 * Crash safety: the built server is SIGKILLed in the middle of a
 * concurrent write load. After a restart on the same DATA_DIR every write it
 * acknowledged (answered 201) is there, the database passes
 * `PRAGMA integrity_check`, and the server answers health and takes writes.
 * (WAL with synchronous=FULL: a commit is in the WAL, and fsynced, before the
 * response is sent; a killed process loses nothing, and neither would a power
 * loss, which this test cannot simulate.)
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-crash-"));
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) s.child.kill("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("crash during a write load", () => {
  it("keeps every acknowledged write and an intact database after SIGKILL and restart", async () => {
    const first = await startServer(dataDir);
    servers.push(first);
    const email = `crash-${Date.now()}@example.com`;
    const password = "Crash-Test-Durable-1";
    const writer = new Session(first.baseUrl, "10.77.0.1");
    await writer.register(email, password);

    const load = writeLoad(writer, 8, "Crash");
    // Kill once the load is well under way (many writes acknowledged, more in flight).
    await until(() => load.acked.length >= 150, "150 acknowledged writes");
    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");
    await load.done;
    expect(load.failures).toEqual([]);
    const acked = [...load.acked];
    expect(acked.length).toBeGreaterThanOrEqual(150);
    // The kill left an un-checkpointed WAL behind: recovery has work to do.
    expect(fs.existsSync(path.join(dataDir, "app.db-wal"))).toBe(true);

    const second = await startServer(dataDir);
    servers.push(second);
    expect((await fetch(`${second.baseUrl}/api/health`)).status).toBe(200);
    const reader = new Session(second.baseUrl, "10.77.0.2");
    await reader.signIn(email, password);

    // Every acknowledged project reads back through the API, with its name.
    for (let i = 0; i < acked.length; i += 25) {
      const batch = acked.slice(i, i + 25);
      const results = await Promise.all(batch.map((a) => reader.call("GET", `/api/projects/${a.id}`)));
      results.forEach((res, j) => {
        expect(res.status, `acknowledged project ${batch[j]!.id}`).toBe(200);
        expect(res.body.name).toBe(batch[j]!.name);
      });
    }
    // The server takes writes again.
    const after = await reader.call("POST", "/api/projects", { name: "After the crash" });
    expect(after.status).toBe(201);

    await second.stop();
    const db = new SQLite(path.join(dataDir, "app.db"), { readonly: true });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(db.pragma("foreign_key_check")).toEqual([]);
      const ids = new Set((db.prepare("SELECT id FROM projects").all() as { id: string }[]).map((r) => r.id));
      expect(acked.filter((a) => !ids.has(a.id))).toEqual([]);
      expect(ids.has(after.body.id)).toBe(true);
    } finally {
      db.close();
    }
  });
});
