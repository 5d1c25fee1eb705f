import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrateToLatest } from "#db/client";
import { resetConfigForTests } from "~/config.server";
import { closeDb, db, sqlite } from "~/db.server";
import { type ApiResult, signedUpClient } from "../support/client";
import { expectError, setPlan } from "../support/org";
import { mountSmallDisk } from "../support/tmpfs";

/**
 * A real full disk, not `max_page_count` (tests/api/disk-full.test.ts): the
 * data directory (app.db, its WAL and shared-memory file) on an 8 MB tmpfs
 * that a filler file fills up. SQLite gets ENOSPC while the WAL grows,
 * answers SQLITE_FULL and rolls the transaction back itself; the API still
 * answers the documented 503 STORAGE_FULL (not 500 from kysely's failed
 * ROLLBACK), saves nothing half-written and works again once space is freed.
 * Skipped, with the reason printed, only where a tmpfs cannot be mounted.
 */

const FULL = "The server's disk is full; nothing was saved. Try again later.";
const mounted = mountSmallDisk("8m");
if (mounted.reason) console.log(`[skipped] real full-disk API test: ${mounted.reason}`);
const disk = mounted.disk;
const originalDataDir = process.env.DATA_DIR;

const count = (query: string, ...params: unknown[]) =>
  sqlite()
    .prepare(query)
    .pluck()
    .get(...params) as number;

beforeAll(async () => {
  if (!disk) return;
  // This file's database moves onto the small filesystem (the WAL and -shm files sit next to it).
  await closeDb();
  process.env.DATA_DIR = disk.dir;
  resetConfigForTests();
  await migrateToLatest(db);
});

afterAll(async () => {
  if (!disk) return;
  await closeDb();
  process.env.DATA_DIR = originalDataDir;
  resetConfigForTests();
  disk.unmount();
});

describe("a real full disk (ENOSPC on a tmpfs data directory)", () => {
  it.skipIf(!disk)("answers 503 STORAGE_FULL, writes nothing half-way, keeps the file intact and recovers when space is freed", async () => {
    expect(path.dirname(sqlite().name)).toBe(disk!.dir);
    expect(sqlite().pragma("journal_mode", { simple: true })).toBe("wal");
    const owner = await signedUpClient();
    await setPlan(owner.organization.id, "enterprise");
    const errorLog = vi.mocked(console.error).mockImplementation(() => {});
    const before = count("SELECT count(*) FROM projects");
    disk!.fill();

    // The WAL reuses the room it already has; a write fails once it must grow.
    const description = "Long enough to need new pages. ".repeat(160).slice(0, 5000);
    let refused: { res: ApiResult; body: { name: string; description: string } } | undefined;
    for (let i = 0; i < 400 && !refused; i++) {
      const body = { name: `Full disk plan ${i}`, description: `${i} ${description}` };
      const res = await owner.client.post("/api/projects", body);
      if (res.status !== 201) refused = { res, body };
    }
    expect(refused, "the disk never filled up").toBeDefined();
    const { res, body } = refused!;
    expectError(res, 503, "STORAGE_FULL");
    expect(res.body.error).toBe(FULL);
    expect(res.headers.get("Retry-After")).toBe("60");
    expect(errorLog.mock.calls.some((c) => String(c[0]).includes("disk full"))).toBe(true);
    expect(errorLog.mock.calls.some((c) => String(c[0]).includes("cannot rollback"))).toBe(false);

    // Nothing of the refused creation remains (no project, no activity, no event), and the file is intact.
    expect(count("SELECT count(*) FROM projects WHERE name = ?", body.name)).toBe(0);
    expect(sqlite().pragma("integrity_check", { simple: true })).toBe("ok");
    const acknowledged = count("SELECT count(*) FROM projects") - before;
    const list = await owner.client.get("/api/projects?limit=200");
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(acknowledged);
    expect(count("SELECT count(*) FROM events WHERE name = 'project.created' AND orgId = ?", owner.organization.id)).toBe(acknowledged);

    disk!.free();
    const retried = await owner.client.post("/api/projects", body);
    expect(retried.status, retried.text).toBe(201);
    expect((await owner.client.get(`/api/projects/${retried.body.id}`)).body.name).toBe(body.name);
    expect(count("SELECT count(*) FROM projects WHERE name = ?", body.name)).toBe(1);
    expect(sqlite().pragma("integrity_check", { simple: true })).toBe("ok");
    errorLog.mockClear();
  });
});
