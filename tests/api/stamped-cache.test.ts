import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { dataStamp, db, searchStamp } from "~/db.server";
import { requestArrived } from "~/utils/request-epoch";
import { addMembership } from "~/domain/orgs/orgs.server";
import { StampedCache } from "~/utils/stamped-cache.server";
import { signedUpClient, TestClient } from "../support/client";

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
    // Another connection's commit shows once a request arrives (nothing could have asked for it sooner)...
    requestArrived();
    const afterOtherWrite = dataStamp();
    expect(afterOtherWrite).not.toBe(afterOwnWrite);
    // ...or once the event loop turns, for the worker and the scheduler.
    const other2 = new SQLite(config().DATABASE_PATH);
    other2.prepare("UPDATE users SET name = 'Changed again' WHERE name = 'Changed elsewhere'").run();
    other2.close();
    await new Promise((r) => setImmediate(r));
    expect(dataStamp()).not.toBe(afterOtherWrite);
  });

  it("reads the data version once while no request arrives and the loop does not turn", async () => {
    const { sqlite } = await import("~/db.server");
    requestArrived();
    const first = dataStamp();
    const other = new SQLite(config().DATABASE_PATH);
    other.prepare("UPDATE users SET name = name || '.'").run();
    other.close();
    // Same turn, no new request: the version read a moment ago still serves (the commit raced this read).
    expect(dataStamp()).toBe(first);
    expect(sqlite().pragma("data_version", { simple: true })).not.toBe(Number(first.split(":")[0]));
    requestArrived();
    expect(dataStamp()).not.toBe(first);
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

  /** A commit from another connection, as LiteFS replication or a second process makes one. */
  const elsewhere = (sql: string, ...params: unknown[]) => {
    const other = new SQLite(config().DATABASE_PATH);
    other.prepare(sql).run(...params);
    other.close();
  };

  it("forgets an API key the moment it is revoked or its owner's role changes, by this process or another", async () => {
    const owner = await signedUpClient({ name: "Key Cache" });
    await db.updateTable("organizations").set({ plan: "starter" }).where("id", "=", owner.organization.id).execute();
    const key = (await owner.client.post("/api/admin/rest-api-keys", { name: "cached" })).body.apiKey.key as string;
    const caller = new TestClient("10.77.0.1");
    expect((await caller.get("/api/projects", { key })).status).toBe(200);
    expect((await caller.get("/api/projects", { key })).status).toBe(200);
    elsewhere("UPDATE memberships SET role = 'viewer' WHERE userId = ?", owner.user.id);
    expect((await caller.post("/api/projects", { name: "Not as a viewer" }, { key })).status).toBe(403);
    elsewhere("UPDATE apiKeys SET revokedAt = ? WHERE userId = ?", new Date().toISOString(), owner.user.id);
    const revoked = await caller.get("/api/projects", { key });
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe("UNAUTHORIZED");
  });

  it("counts a write by what the statement does: RETURNING and CTE writes move the stamp, reads (CTEs included) do not", async () => {
    const { user, organization } = await signedUpClient({ name: "Returning" });
    let stamp = dataStamp();
    const moved = () => {
      const next = dataStamp();
      const changed = next !== stamp;
      stamp = next;
      return changed;
    };
    // better-sqlite3 reports these as readers (they return rows), and data_version ignores this connection's own commits.
    await db.updateTable("users").set({ name: "Returning 2" }).where("id", "=", user.id).returning("id").execute();
    expect(moved()).toBe(true);
    const entry = {
      id: crypto.randomUUID(),
      orgId: organization.id,
      cidr: "198.51.100.0/24",
      label: "x",
      createdById: null,
      createdAt: new Date().toISOString(),
    };
    await db.insertInto("ipAllowlistEntries").values(entry).returningAll().execute();
    expect(moved()).toBe(true);
    await db.deleteFrom("ipAllowlistEntries").where("id", "=", entry.id).returning("id").execute();
    expect(moved()).toBe(true);
    await sql`WITH t AS (SELECT ${user.id} AS id) UPDATE users SET name = 'Returning 3' WHERE id IN (SELECT id FROM t) RETURNING id`.execute(db);
    expect(moved()).toBe(true);
    await db.selectFrom("users").select("id").where("id", "=", user.id).execute();
    await sql`WITH t AS (SELECT 1 AS one) SELECT one FROM t`.execute(db);
    for await (const row of db.selectFrom("users").select("id").stream()) void row;
    expect(moved()).toBe(false);
  });

  it("forgets a cached API key, role, access and allowlist after a RETURNING write in this process", async () => {
    const owner = await signedUpClient({ name: "Returning Owner" });
    await db.updateTable("organizations").set({ plan: "enterprise" }).where("id", "=", owner.organization.id).execute();
    const key = (await owner.client.post("/api/admin/rest-api-keys", { name: "cached" })).body.apiKey.key as string;
    const caller = new TestClient("10.78.0.1");
    const projectId = (await caller.post("/api/projects", { name: "Returning guarded" }, { key })).body.id as string;
    expect(projectId).toBeTruthy();

    // Access: a viewer collaborator reads the project; removing the collaborator (DELETE … RETURNING) takes it away.
    const guest = await signedUpClient({ name: "Returning Guest" });
    await addMembership(db, owner.organization.id, guest.user.id, "viewer");
    await db.updateTable("sessions").set({ orgId: owner.organization.id }).where("userId", "=", guest.user.id).execute();
    expect((await owner.client.post(`/api/projects/${projectId}/collaborators`, { email: guest.email, role: "viewer" })).status).toBe(201);
    expect((await guest.client.get(`/api/projects/${projectId}`)).status).toBe(200);
    expect((await guest.client.get(`/api/projects/${projectId}`)).status).toBe(200);
    const removed = await db
      .deleteFrom("projectCollaborators")
      .where("projectId", "=", projectId)
      .where("userId", "=", guest.user.id)
      .returning("id")
      .execute();
    expect(removed).toHaveLength(1);
    expect((await guest.client.get(`/api/projects/${projectId}`)).status).toBe(404);

    // Allowlist: an entry added with INSERT … RETURNING shuts out other addresses at once.
    expect((await caller.get("/api/projects", { key })).status).toBe(200);
    await db
      .insertInto("ipAllowlistEntries")
      .values({
        id: crypto.randomUUID(),
        orgId: owner.organization.id,
        cidr: "192.0.2.0/24",
        label: "office",
        createdById: owner.user.id,
        createdAt: new Date().toISOString(),
      })
      .returning("id")
      .execute();
    const blocked = await caller.get("/api/projects", { key });
    expect(blocked.status, blocked.text).toBe(403);
    expect(blocked.body.code).toBe("IP_NOT_ALLOWED");
    await db.deleteFrom("ipAllowlistEntries").where("orgId", "=", owner.organization.id).returning("id").execute();
    expect((await caller.get("/api/projects", { key })).status).toBe(200);

    // Role: demoted with UPDATE … RETURNING, the key's owner may no longer create projects.
    expect((await caller.get("/api/projects", { key })).status).toBe(200);
    await db.updateTable("memberships").set({ role: "viewer" }).where("userId", "=", owner.user.id).returning("role").execute();
    expect((await caller.post("/api/projects", { name: "Not as a viewer" }, { key })).status).toBe(403);

    // Revoked with UPDATE … RETURNING: the next request is refused.
    const revoked = await db
      .updateTable("apiKeys")
      .set({ revokedAt: new Date().toISOString() })
      .where("userId", "=", owner.user.id)
      .returning(["id", "revokedAt"])
      .execute();
    expect(revoked).toHaveLength(1);
    const refused = await caller.get("/api/projects", { key });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("UNAUTHORIZED");
  });

  it("re-reads a project's access after any write: a collaborator removed elsewhere loses it at once", async () => {
    const owner = await signedUpClient({ name: "Access Owner" });
    const guest = await signedUpClient({ name: "Access Guest" });
    await addMembership(db, owner.organization.id, guest.user.id, "viewer");
    await db.updateTable("sessions").set({ orgId: owner.organization.id }).where("userId", "=", guest.user.id).execute();
    const projectId = (await owner.client.post("/api/projects", { name: "Guarded" })).body.id as string;
    expect((await guest.client.get(`/api/projects/${projectId}`)).status).toBe(404);
    const added = await owner.client.post(`/api/projects/${projectId}/collaborators`, { email: guest.email, role: "viewer" });
    expect(added.status, added.text).toBe(201);
    expect((await guest.client.get(`/api/projects/${projectId}`)).status).toBe(200);
    expect((await guest.client.get(`/api/projects/${projectId}`)).status).toBe(200);
    elsewhere("DELETE FROM projectCollaborators WHERE projectId = ? AND userId = ?", projectId, guest.user.id);
    expect((await guest.client.get(`/api/projects/${projectId}`)).status).toBe(404);
  });

  it("keeps search results across writes a search cannot see (comments, sessions, events), not across project, PRD or collaborator writes", async () => {
    const owner = await signedUpClient({ name: "Search Stamp" });
    const guest = await signedUpClient({ name: "Search Guest" });
    await addMembership(db, owner.organization.id, guest.user.id, "viewer");
    await db.updateTable("sessions").set({ orgId: owner.organization.id }).where("userId", "=", guest.user.id).execute();
    const id = (await owner.client.post("/api/projects", { name: "Heron tracker", description: "Tracks herons" })).body.id as string;
    let stamp = searchStamp();
    const moved = () => {
      const next = searchStamp();
      const changed = next !== stamp;
      stamp = next;
      return changed;
    };
    expect((await owner.client.post(`/api/projects/${id}/comments`, { content: "Looks good" })).status).toBe(201);
    await db.updateTable("sessions").set({ userAgent: "Search stamp test" }).execute();
    await db.updateTable("events").set({ attempts: 0 }).execute();
    expect(moved()).toBe(false);
    expect((await owner.client.patch(`/api/projects/${id}`, { priority: "high" })).status).toBe(200);
    expect(moved()).toBe(true);
    expect((await owner.client.post(`/api/projects/${id}/prd`, { content: "# Herons\n\nWading birds." })).status).toBeLessThan(300);
    expect(moved()).toBe(true);
    elsewhere("UPDATE prds SET content = content || ' More.' WHERE projectId = ?", id);
    expect(moved()).toBe(true);
    elsewhere("UPDATE projects SET status = 'IN_REVIEW' WHERE id = ?", id);
    expect(moved()).toBe(true);

    // A viewer who collaborates finds the project; removed elsewhere, the cached ranking must not show it any more.
    const search = async () => (await guest.client.get("/api/search?q=heron")).body.results.map((r: { name: string }) => r.name);
    expect(await search()).toEqual([]);
    expect((await owner.client.post(`/api/projects/${id}/collaborators`, { email: guest.email, role: "viewer" })).status).toBe(201);
    expect(moved()).toBe(true);
    expect(await search()).toEqual(["Heron tracker"]);
    expect(await search()).toEqual(["Heron tracker"]);
    elsewhere("DELETE FROM projectCollaborators WHERE projectId = ? AND userId = ?", id, guest.user.id);
    expect(moved()).toBe(true);
    expect(await search()).toEqual([]);
    // Deleting the project (the organization's cascade included) moves it too.
    elsewhere("DELETE FROM projects WHERE id = ?", id);
    expect(moved()).toBe(true);
  });
});
