import { describe, expect, it } from "vitest";
import type { PlanId } from "#db/schema";
import { db } from "~/db.server";
import { GOOD_PASSWORD, TestClient, signedUpClient, type ApiResult } from "../support/client";

const LIST = "/api/admin/ip-allowlist";

function expectError(res: ApiResult, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ code });
}

async function ownerOn(plan: PlanId) {
  const account = await signedUpClient();
  await db.updateTable("organizations").set({ plan }).where("id", "=", account.organization.id).execute();
  return account;
}

async function memberOf(orgId: string, role: "member" | "admin" = "member") {
  const other = await signedUpClient();
  await db.insertInto("memberships").values({ id: crypto.randomUUID(), orgId, userId: other.user.id, role, createdAt: new Date().toISOString() }).execute();
  await db.updateTable("sessions").set({ orgId }).where("userId", "=", other.user.id).execute();
  return other;
}

const remove = (client: TestClient, id: string) => client.call("DELETE", LIST, { json: { id } });

describe("IP allowlist management", () => {
  it("free and pro plans are refused; members are refused on enterprise", async () => {
    for (const plan of ["free", "pro"] as const) {
      const { client } = await ownerOn(plan);
      expectError(await client.get(LIST), 403, "PLAN_UPGRADE_REQUIRED");
      expectError(await client.post(LIST, { cidr: "1.2.3.4" }), 403, "PLAN_UPGRADE_REQUIRED");
    }
    const { client, organization } = await ownerOn("enterprise");
    const member = await memberOf(organization.id);
    expectError(await member.client.get(LIST), 403, "FORBIDDEN");
    expect((await client.get(LIST)).status).toBe(200);
  });

  it("adds normalised IPv4/IPv6/CIDR entries, lists, refuses duplicates and invalid input, deletes", async () => {
    const { client } = await ownerOn("enterprise");
    const ip = client.ip;
    const empty = await client.get(LIST);
    expect(empty.body).toEqual({ entries: [], currentIp: ip });

    expectError(await client.post(LIST, { cidr: "1.2.3.4/33" }), 400, "VALIDATION_ERROR");
    expectError(await client.post(LIST, { cidr: "" }), 400, "VALIDATION_ERROR");
    // The first entry must cover the caller.
    expectError(await client.post(LIST, { cidr: "2001:db8::/32", label: "v6 office" }), 409, "CONFLICT");

    const own = await client.post(LIST, { cidr: `::ffff:${ip}`, label: "me" });
    expect(own.status, own.text).toBe(201);
    expect(own.body.entry).toMatchObject({ cidr: `${ip}/32`, label: "me" });
    const v6 = await client.post(LIST, { cidr: "2001:DB8:1::5/32", label: "v6 office" });
    expect(v6.body.entry.cidr).toBe("2001:db8::/32");
    const net = await client.post(LIST, { cidr: "192.168.7.9/24" });
    expect(net.body.entry).toMatchObject({ cidr: "192.168.7.0/24", label: "" });
    expectError(await client.post(LIST, { cidr: "192.168.7.0/24" }), 409, "CONFLICT");

    const listed = await client.get(LIST);
    expect(listed.body.entries.map((e: { cidr: string }) => e.cidr)).toEqual([`${ip}/32`, "2001:db8::/32", "192.168.7.0/24"]);

    // Removing the entry covering the caller would lock them out.
    expectError(await remove(client, own.body.entry.id), 409, "CONFLICT");
    expect((await remove(client, v6.body.entry.id)).body).toEqual({ success: true });
    expectError(await remove(client, v6.body.entry.id), 404, "NOT_FOUND");
    expectError(await client.call("DELETE", LIST, { json: {} }), 400, "VALIDATION_ERROR");
    expect((await remove(client, net.body.entry.id)).status).toBe(200);
    // The last entry can go: an empty list allows everyone.
    expect((await remove(client, own.body.entry.id)).status).toBe(200);
    expect((await client.get(LIST)).body.entries).toEqual([]);

    const audit = await db.selectFrom("auditLogs").selectAll().where("action", "like", "ip_allowlist.%").where("actorEmail", "is not", null).execute();
    const mine = audit.filter((a) => a.ip === ip);
    expect(mine.filter((a) => a.action === "ip_allowlist.entry_added")).toHaveLength(3);
    expect(mine.filter((a) => a.action === "ip_allowlist.entry_removed")).toHaveLength(3);
    expect(mine.every((a) => a.category === "security" && a.severity === "warning")).toBe(true);
  });

  it("an entry from another organization cannot be deleted", async () => {
    const a = await ownerOn("enterprise");
    const b = await ownerOn("enterprise");
    const entry = (await a.client.post(LIST, { cidr: a.client.ip })).body.entry;
    expectError(await remove(b.client, entry.id), 404, "NOT_FOUND");
  });
});

describe("IP allowlist enforcement", () => {
  it("signs in only where an organization admits the address: another of the account's organizations, or nowhere", async () => {
    const { client, organization, email, user } = await ownerOn("enterprise");
    expect((await client.post(LIST, { cidr: `${client.ip}/32` })).status).toBe(201);
    const signIn = (ip: string) => new TestClient(ip).post("/api/auth/sign-in", { email, password: GOOD_PASSWORD });
    const sessions = async () => (await db.selectFrom("sessions").select("id").where("userId", "=", user.id).execute()).length;
    const before = await sessions();

    const blocked = await signIn("10.99.0.7");
    expectError(blocked, 403, "IP_NOT_ALLOWED");
    expect(blocked.headers.getSetCookie()).toEqual([]);
    expect(await sessions()).toBe(before);

    const allowed = await signIn(client.ip);
    expect(allowed.status).toBe(200);
    expect(allowed.body.organization.id).toBe(organization.id);

    // With another organization that has no list, a sign-in from elsewhere lands there.
    const other = await signedUpClient();
    await db
      .insertInto("memberships")
      .values({ id: crypto.randomUUID(), orgId: other.organization.id, userId: user.id, role: "member", createdAt: new Date().toISOString() })
      .execute();
    const landed = await signIn("10.99.0.7");
    expect(landed.status, landed.text).toBe(200);
    expect(landed.body.organization.id).toBe(other.organization.id);
  });

  it("blocks session and API-key callers outside the list, on API and pages; other orgs unaffected", async () => {
    const { client, organization } = await ownerOn("enterprise");
    const member = await memberOf(organization.id);
    const key = (await client.post("/api/admin/rest-api-keys", { name: "ci" })).body.apiKey.key as string;
    const outsider = await ownerOn("enterprise");

    expect((await client.post(LIST, { cidr: `${client.ip}/32` })).status).toBe(201);
    expect((await client.post(LIST, { cidr: "2001:db8::/48" })).status).toBe(201);

    // Owner from an allowed address keeps working.
    expect((await client.get("/api/projects")).status).toBe(200);
    // The member's session comes from another address.
    expectError(await member.client.get("/api/projects"), 403, "IP_NOT_ALLOWED");
    const page = await member.client.get("/home");
    expect(page.status).toBe(403);
    // The owner's own session from elsewhere is blocked too.
    expectError(await client.get("/api/projects", { ip: "10.99.0.1" }), 403, "IP_NOT_ALLOWED");
    expect((await client.get("/api/projects", { ip: `::ffff:${client.ip}` })).status).toBe(200);
    expect((await client.get("/api/projects", { ip: "2001:db8:0:ffff::1" })).status).toBe(200);

    const bare = new TestClient("10.99.0.2");
    expectError(await bare.get("/api/projects", { key }), 403, "IP_NOT_ALLOWED");
    expect((await bare.get("/api/projects", { key, ip: client.ip })).status).toBe(200);

    // Other organizations are not affected.
    expect((await outsider.client.get("/api/projects")).status).toBe(200);

    // Allowing the member's address lets them in at once.
    expect((await client.post(LIST, { cidr: member.client.ip })).status).toBe(201);
    expect((await member.client.get("/api/projects")).status).toBe(200);
  });
});
