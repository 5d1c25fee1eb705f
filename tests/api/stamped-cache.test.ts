import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { dataStamp, db } from "~/db.server";
import { StampedCache } from "~/utils/stamped-cache.server";
import { signedUpClient } from "../support/client";

/** Caches valid until the next write: never older than the last acknowledged write, by anyone. */
describe("dataStamp and StampedCache", () => {
  it("changes with this process's writes and with commits from another connection, not with reads", async () => {
    await signedUpClient({ name: "Stamp" });
    const before = dataStamp();
    await db.selectFrom("users").selectAll().execute();
    expect(dataStamp()).toBe(before);
    await db.updateTable("users").set({ name: "Stamp again" }).where("name", "=", "Stamp").execute();
    const afterOwnWrite = dataStamp();
    expect(afterOwnWrite).not.toBe(before);
    const other = new SQLite(config().DATABASE_PATH);
    other.prepare("UPDATE users SET name = 'Changed elsewhere' WHERE name = 'Stamp again'").run();
    other.close();
    expect(dataStamp()).not.toBe(afterOwnWrite);
  });

  it("serves an entry until the stamp moves, and shares one computation between concurrent readers", async () => {
    const cache = new StampedCache<number>();
    let computed = 0;
    const compute = async () => ++computed;
    const [a, b] = await Promise.all([cache.get("k", compute), cache.get("k", compute)]);
    expect([a, b, computed]).toEqual([1, 1, 1]);
    expect(await cache.get("k", compute)).toBe(1);
    await db.updateTable("users").set({ timezone: "UTC" }).execute();
    expect(await cache.get("k", compute)).toBe(2);
    const failing = cache.get("bad", async () => Promise.reject(new Error("boom")));
    await expect(failing).rejects.toThrow("boom");
    expect(await cache.get("bad", compute)).toBe(3);
  });

  it("keeps search results only until a project changes", async () => {
    const { client } = await signedUpClient({ name: "Searcher" });
    const id = (await client.post("/api/projects", { name: "Falcon tracker", description: "Tracks falcons" })).body.id;
    const search = async () => (await client.get("/api/search?q=falcon")).body.results.map((r: { name: string }) => r.name);
    expect(await search()).toEqual(["Falcon tracker"]);
    expect(await search()).toEqual(["Falcon tracker"]);
    await client.patch(`/api/projects/${id}`, { name: "Osprey tracker", description: "Tracks ospreys" });
    expect(await search()).toEqual([]);
  });
});
