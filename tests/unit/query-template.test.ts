import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from "kysely";
import { describe, expect, it } from "vitest";
import { QueryTemplates, slot } from "~/utils/query-template.server";

/** Queries compiled once per shape, the values put into their slots per execution. */

const db = new Kysely<{ t: { id: string; n: number } }>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

describe("QueryTemplates", () => {
  it("builds a shape once and fills its slots with each call's values, leaving constants alone", () => {
    const templates = new QueryTemplates();
    let built = 0;
    const build = () => (built++, db.selectFrom("t").selectAll().where("id", "=", slot("id")).where("n", ">", 3).limit(slot<number>("limit")));
    const first = templates.fill("by id", build, { id: "a", limit: 5 });
    const second = templates.fill("by id", build, { id: "b", limit: 7 });
    expect(built).toBe(1);
    expect(first.sql).toBe(second.sql);
    expect(first.parameters).toEqual(["a", 3, 5]);
    expect(second.parameters).toEqual(["b", 3, 7]);
  });

  it("refuses to run with a slot left empty", () => {
    const templates = new QueryTemplates();
    expect(() => templates.fill("by id", () => db.selectFrom("t").selectAll().where("id", "=", slot("id")), {})).toThrow("no value for id");
  });

  it("keeps at most `max` shapes, the oldest going first", () => {
    const templates = new QueryTemplates(2);
    let built = 0;
    const build = () => (built++, db.selectFrom("t").selectAll().where("id", "=", slot("id")));
    for (const shape of ["a", "b", "c", "a"]) templates.fill(shape, build, { id: "x" });
    expect(built).toBe(4);
  });
});
