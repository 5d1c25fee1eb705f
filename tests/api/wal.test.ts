import SQLite from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { createDb, openSqlite } from "#db/client";
import { config } from "~/config.server";
import { sqlite } from "~/db.server";
import { checkpointOffThread, checkpointWal, walBytes, walCheckpointTick } from "~/ops/checkpoint.server";

/**
 * The write-ahead log stays bounded under sustained writes:
 * automatic checkpoints keep it near 1000 pages while nobody holds an old
 * snapshot; a long reader lets it grow, and the scheduled
 * wal_checkpoint(TRUNCATE) gives the space back once the reader is done.
 */

// 1000 pages of 4 KiB plus frame headers is ~4.1 MB; twice that is a generous ceiling.
const BOUND = 8 * 1024 * 1024;

function writer() {
  const conn = sqlite();
  conn.exec("CREATE TABLE IF NOT EXISTS wal_scratch (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  const insert = conn.prepare("INSERT INTO wal_scratch (body) VALUES (?)");
  const body = "sustained write load ".repeat(10);
  let written = 0;
  /** `n` writes, each its own transaction; returns the largest WAL size seen. */
  return (n: number) => {
    let max = 0;
    for (let i = 0; i < n; i++) {
      insert.run(`${written++} ${body}`);
      if (i % 250 === 0) max = Math.max(max, walBytes(conn.name));
    }
    return { max: Math.max(max, walBytes(conn.name)), written };
  };
}

describe("WAL under sustained writes", () => {
  it("opens the database with the durability pragmas", () => {
    const conn = sqlite();
    expect(conn.pragma("journal_mode", { simple: true })).toBe("wal");
    // FULL: an acknowledged commit is on disk (fsynced WAL), so it survives a power loss (docs/benchmarks.md, "Durable commits").
    expect(conn.pragma("synchronous", { simple: true })).toBe(2);
    expect(conn.pragma("wal_autocheckpoint", { simple: true })).toBe(1000);
    expect(conn.pragma("journal_size_limit", { simple: true })).toBe(64 * 1024 * 1024);
  });

  it("opens every connection of the app and its scripts with synchronous = FULL (better-sqlite3 alone would give NORMAL in WAL)", () => {
    const file = config().DATABASE_PATH;
    const bare = new SQLite(file);
    try {
      expect(bare.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(bare.pragma("synchronous", { simple: true })).toBe(1); // what a connection without openSqlite gets
    } finally {
      bare.close();
    }
    const opened = openSqlite(file);
    try {
      expect(opened.pragma("synchronous", { simple: true })).toBe(2);
    } finally {
      opened.close();
    }
    // A second database handle (scripts use createDb) gets the same pragmas.
    const second = createDb(file);
    try {
      expect(second.sqlite.pragma("synchronous", { simple: true })).toBe(2);
    } finally {
      second.sqlite.close();
    }
  });

  it("keeps the WAL bounded, lets a long reader hold it back, and truncates it once the reader is done", async () => {
    // 60,000 commits: with FULL each waits for an fsync of the WAL (0.1–3 ms on
    // the shared test machine). How the WAL grows and is checkpointed does not
    // depend on the sync mode, so this test writes with NORMAL and restores FULL.
    sqlite().pragma("synchronous = NORMAL");
    onTestFinished(() => {
      sqlite().pragma("synchronous = FULL");
    });
    const write = writer();
    const file = config().DATABASE_PATH;

    // 20,000 small transactions without readers: autocheckpoints keep the WAL small.
    const steady = write(20_000);
    expect(steady.max).toBeGreaterThan(0);
    expect(steady.max).toBeLessThan(BOUND);

    // A reader holding one snapshot: checkpoints cannot pass it, the WAL grows.
    const reader = new SQLite(file, { readonly: true });
    reader.exec("BEGIN");
    const seen = (reader.prepare("SELECT count(*) AS n FROM wal_scratch").get() as { n: number }).n;
    const held = write(20_000);
    expect(held.max).toBeGreaterThan(BOUND);
    // The scheduled checkpoint does not wait for the reader (it would block the server): it reports busy.
    const blocked = checkpointWal();
    expect(blocked.busy).toBe(1);
    // The tick's own checkpoint, in a worker thread on its own connection, reports it the same way.
    expect(await checkpointOffThread()).toMatchObject({ busy: 1 });
    expect((reader.prepare("SELECT count(*) AS n FROM wal_scratch").get() as { n: number }).n).toBe(seen);
    reader.exec("COMMIT");
    reader.close();

    // The tick (in its worker thread) truncates the WAL to nothing, with every row kept.
    await walCheckpointTick.run();
    expect(walBytes(file)).toBe(0);
    const after = write(20_000);
    expect(after.max).toBeLessThan(BOUND);
    expect((sqlite().prepare("SELECT count(*) AS n FROM wal_scratch").get() as { n: number }).n).toBe(after.written);
    expect(checkpointWal()).toMatchObject({ busy: 0, walBytes: 0 });
    expect(sqlite().pragma("integrity_check", { simple: true })).toBe("ok");
  });
});
