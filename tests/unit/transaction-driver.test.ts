import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb } from "#db/client";
import { AppError } from "~/domain/errors";
import { asStorageError } from "~/ops/storage-errors.server";
import { mountSmallDisk } from "../support/tmpfs";

/**
 * Transactions through db/client.ts when SQLite rolls the whole transaction
 * back itself (a real full disk, a trigger's RAISE(ROLLBACK)): the caller
 * gets SQLite's error, not kysely's "cannot rollback - no transaction is
 * active", and nothing of the transaction is written, even by code that
 * caught the error and went on.
 */

type Handle = ReturnType<typeof createDb>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-trx-"));
const handles: Handle[] = [];

function open(file: string) {
  const h = createDb(file);
  handles.push(h);
  h.sqlite.exec(`CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS log (v TEXT NOT NULL);
    CREATE TRIGGER IF NOT EXISTS refuse BEFORE INSERT ON t WHEN NEW.v = 'refused' BEGIN SELECT RAISE(ROLLBACK, 'refused by trigger'); END;`);
  return h;
}

const db = (h: Handle) => h.db as unknown as Kysely<any>;
const insert = (h: Handle, v: string) => sql`INSERT INTO t (v) VALUES (${v})`.execute(db(h));
const rows = (h: Handle) => h.sqlite.prepare("SELECT count(*) AS n FROM t").pluck().get() as number;
const caught = async (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (error: unknown) => error as Error & { code?: string },
  );

afterAll(async () => {
  for (const h of handles) await h.db.destroy().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a transaction SQLite rolled back itself", () => {
  const h = open(path.join(dir, "trigger.db"));

  it("fails with SQLite's error, not with the failed ROLLBACK's, and writes nothing", async () => {
    const error = await caught(
      h.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO t (v) VALUES ('first')`.execute(trx);
        await sql`INSERT INTO t (v) VALUES ('refused')`.execute(trx);
      }),
    );
    expect(error?.message).toBe("refused by trigger");
    expect(error?.code).toBe("SQLITE_CONSTRAINT_TRIGGER");
    expect(h.sqlite.inTransaction).toBe(false);
    expect(rows(h)).toBe(0);
    // The connection is fine afterwards.
    await h.db.transaction().execute((trx) => sql`INSERT INTO t (v) VALUES ('later')`.execute(trx));
    expect(rows(h)).toBe(1);
  });

  it("refuses the statements that follow in the same callback, so none runs outside the transaction", async () => {
    const before = rows(h);
    const error = await caught(
      h.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO t (v) VALUES ('kept?')`.execute(trx);
        // Code that swallows a failure and goes on.
        await sql`INSERT INTO t (v) VALUES ('refused')`.execute(trx).catch(() => {});
        await sql`INSERT INTO log (v) VALUES ('after the failure')`.execute(trx);
      }),
    );
    expect(error?.message).toBe("refused by trigger");
    expect(rows(h)).toBe(before);
    expect(h.sqlite.prepare("SELECT count(*) FROM log").pluck().get()).toBe(0);
  });

  it("does not commit what a callback that swallowed the error wrote before returning", async () => {
    const before = rows(h);
    const error = await caught(
      h.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO t (v) VALUES ('a')`.execute(trx);
        await sql`INSERT INTO t (v) VALUES ('refused')`.execute(trx).catch(() => {});
      }),
    );
    expect(error?.message).toBe("refused by trigger");
    expect(rows(h)).toBe(before);
  });

  it("answers a ROLLBACK TO savepoint after it with SQLite's error, not 'no such savepoint'", async () => {
    const error = await caught(
      h.db.transaction().execute(async (trx) => {
        await sql`SAVEPOINT step`.execute(trx);
        try {
          await sql`INSERT INTO t (v) VALUES ('refused')`.execute(trx);
        } catch {
          await sql`ROLLBACK TO step`.execute(trx);
        }
      }),
    );
    expect(error?.message).toBe("refused by trigger");
  });

  it("leaves ordinary failures alone: a statement-level error keeps the transaction, ROLLBACK undoes it", async () => {
    const before = rows(h);
    const error = await caught(
      h.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO t (v) VALUES ('undone')`.execute(trx);
        await sql`INSERT INTO t (v) VALUES (NULL)`.execute(trx).catch(() => {});
        expect(h.sqlite.inTransaction).toBe(true);
        throw new Error("changed my mind");
      }),
    );
    expect(error?.message).toBe("changed my mind");
    expect(rows(h)).toBe(before);
  });
});

describe("a full database (max_page_count)", () => {
  const h = open(path.join(dir, "pages.db"));
  afterEach(() => h.sqlite.pragma("max_page_count = 4294967294"));

  it("fails with SQLITE_FULL, which becomes STORAGE_FULL, saves nothing and works again with room", async () => {
    const errorLog = vi.mocked(console.error).mockImplementation(() => {});
    h.sqlite.pragma(`max_page_count = ${h.sqlite.pragma("page_count", { simple: true })}`);
    const before = rows(h);
    const error = await caught(
      h.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 100; i++) await sql`INSERT INTO t (v) VALUES (${"x".repeat(4000)})`.execute(trx);
      }),
    );
    expect(error?.code).toBe("SQLITE_FULL");
    const converted = asStorageError(error);
    expect(converted).toBeInstanceOf(AppError);
    expect((converted as AppError).code).toBe("STORAGE_FULL");
    expect(rows(h)).toBe(before);
    h.sqlite.pragma("max_page_count = 4294967294");
    await h.db.transaction().execute((trx) => sql`INSERT INTO t (v) VALUES (${"x".repeat(4000)})`.execute(trx));
    expect(rows(h)).toBe(before + 1);
    expect(h.sqlite.pragma("integrity_check", { simple: true })).toBe("ok");
    errorLog.mockClear();
  });
});

describe("a real full filesystem (ENOSPC, a 2 MB tmpfs)", () => {
  const mounted = mountSmallDisk("2m");
  if (mounted.reason) console.log(`[skipped] real full-disk transaction test: ${mounted.reason}`);
  const disk = mounted.disk;
  let h: Handle;
  beforeAll(() => {
    if (disk) h = open(path.join(disk.dir, "app.db"));
  });
  afterAll(async () => {
    if (!disk) return;
    await h.db.destroy();
    disk.unmount();
  });

  it.skipIf(!disk)("fails with SQLITE_FULL (STORAGE_FULL), not 'cannot rollback', saves nothing, and works again once space is freed", async () => {
    const errorLog = vi.mocked(console.error).mockImplementation(() => {});
    await insert(h, "before the disk filled");
    disk!.fill();
    const before = rows(h);
    let error: (Error & { code?: string }) | undefined;
    // The WAL reuses the space it has; it fails once it must grow.
    for (let i = 0; i < 200 && !error; i++) {
      error = await caught(
        h.db.transaction().execute(async (trx) => {
          await sql`INSERT INTO t (v) VALUES (${"y".repeat(6000)})`.execute(trx);
          await sql`INSERT INTO log (v) VALUES (${`batch ${i}`})`.execute(trx);
        }),
      );
    }
    expect(error?.message).not.toContain("cannot rollback");
    expect(error?.code).toBe("SQLITE_FULL");
    expect((asStorageError(error) as AppError).code).toBe("STORAGE_FULL");
    // Every transaction is all or nothing: each committed batch has its two rows, the refused one none.
    const written = rows(h) - before;
    expect(h.sqlite.prepare("SELECT count(*) FROM log").pluck().get()).toBe(written);
    expect(h.sqlite.pragma("integrity_check", { simple: true })).toBe("ok");

    disk!.free();
    await h.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO t (v) VALUES (${"z".repeat(6000)})`.execute(trx);
      await sql`INSERT INTO log (v) VALUES ('after')`.execute(trx);
    });
    expect(rows(h) - before).toBe(written + 1);
    expect(h.sqlite.pragma("integrity_check", { simple: true })).toBe("ok");
    errorLog.mockClear();
  });
});
