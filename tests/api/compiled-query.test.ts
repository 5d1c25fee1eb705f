import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { compiledQuery, db, type Slots } from "~/db.server";

/** Queries compiled once and run with new values (the hot paths: authentication, project access, the PRD). */
describe("compiledQuery", () => {
  it("binds values by name, in whatever order the SQL uses them, builds once, and runs inside transactions", async () => {
    let builds = 0;
    const q = compiledQuery((p: Slots<"b" | "a">) => {
      builds++;
      return db.selectNoFrom([sql<string>`${p.a} || '-' || ${p.b} || '-' || ${"fixed"}`.as("joined")]);
    });
    expect((await q({ a: "x", b: "y" })).rows).toEqual([{ joined: "x-y-fixed" }]);
    expect((await q({ b: "2", a: "1" })).rows).toEqual([{ joined: "1-2-fixed" }]);
    await db.transaction().execute(async (trx) => {
      await trx.executeQuery(sql`create temp table t (v text)`.compile(trx));
      await trx.executeQuery(sql`insert into t values ('inside')`.compile(trx));
      const read = compiledQuery((p: Slots<"v">) =>
        trx
          .selectFrom("t" as never)
          .select(sql<string>`v`.as("v"))
          .where(sql.ref("v"), "=", p.v),
      );
      expect((await read({ v: "inside" }, trx)).rows).toEqual([{ v: "inside" }]);
    });
    expect(builds).toBe(1);
  });
});
