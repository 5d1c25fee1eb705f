import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createDb } from "#db/client";
import { inOneTransaction } from "#db/nested-transactions";

/** kysely's transactions inside one outer transaction (the demo seed): savepoints, all or nothing. */

async function table() {
  const { db, sqlite } = createDb(":memory:");
  await sql`CREATE TABLE t (v TEXT NOT NULL)`.execute(db);
  const values = async () => (await sql<{ v: string }>`SELECT v FROM t ORDER BY rowid`.execute(db)).rows.map((r) => r.v);
  const insert = (v: string) => db.transaction().execute((trx) => sql`INSERT INTO t (v) VALUES (${v})`.execute(trx));
  return { db, sqlite, values, insert };
}

describe("nested transactions", () => {
  it("commits every inner transaction with the outer one", async () => {
    const { sqlite, values, insert } = await table();
    await inOneTransaction(sqlite, async () => {
      await insert("a");
      await insert("b");
      expect(sqlite.inTransaction).toBe(true);
    });
    expect(sqlite.inTransaction).toBe(false);
    expect(await values()).toEqual(["a", "b"]);
  });

  it("rolls back an inner transaction that failed, keeping the outer one's other work", async () => {
    const { db, sqlite, values, insert } = await table();
    await inOneTransaction(sqlite, async () => {
      await insert("kept");
      await expect(
        db.transaction().execute(async (trx) => {
          await sql`INSERT INTO t (v) VALUES ('undone')`.execute(trx);
          throw new Error("inner failure");
        }),
      ).rejects.toThrow("inner failure");
      expect(await values()).toEqual(["kept"]);
    });
    expect(await values()).toEqual(["kept"]);
  });

  it("rolls everything back when the outer work fails", async () => {
    const { sqlite, values, insert } = await table();
    await expect(
      inOneTransaction(sqlite, async () => {
        await insert("a");
        throw new Error("halfway");
      }),
    ).rejects.toThrow("halfway");
    expect(sqlite.inTransaction).toBe(false);
    expect(await values()).toEqual([]);
  });

  it("leaves ordinary transactions as they were", async () => {
    const { sqlite, values, insert } = await table();
    await insert("x");
    expect(sqlite.inTransaction).toBe(false);
    expect(await values()).toEqual(["x"]);
  });
});
