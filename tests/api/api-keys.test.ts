import { describe, expect, it } from "vitest";
import type { PlanId } from "#db/schema";
import { db } from "~/db.server";
import { sha256 } from "~/utils/ids.server";
import { TestClient, signedUpClient, type ApiResult } from "../support/client";

const KEYS = "/api/admin/rest-api-keys";
const KEY_FORMAT = /^svc_[0-9a-f]{40}$/;

let ipCounter = 0;
const freshIp = () => {
  ipCounter++;
  return `10.30.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};
/** A client with no cookies, for Bearer calls. */
const bare = () => new TestClient(freshIp());

function expectError(res: ApiResult, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ code });
  expect(typeof res.body.error).toBe("string");
}

async function setPlan(orgId: string, plan: PlanId) {
  await db.updateTable("organizations").set({ plan }).where("id", "=", orgId).execute();
}

/** A freshly registered owner whose organization is on `plan`. */
async function adminOn(plan: PlanId) {
  const account = await signedUpClient();
  await setPlan(account.organization.id, plan);
  return account;
}

async function createKey(client: TestClient, body: Record<string, unknown> = { name: "key" }) {
  const res = await client.post(KEYS, body);
  expect(res.status, res.text).toBe(201);
  return res.body.apiKey as { id: string; name: string; key: string; prefix: string; expiresAt: string | null; createdAt: string };
}

describe("plan limits on API keys", () => {
  it("refuses any key on the free plan with 403 LIMIT_REACHED, metric api_keys", async () => {
    const { client } = await signedUpClient();
    const res = await client.post(KEYS, { name: "ci" });
    expectError(res, 403, "LIMIT_REACHED");
    expect(res.body.metric).toBe("api_keys");
    expect(res.body.error).toBe("The Free plan does not include REST API keys. Upgrade to Starter for more.");
    const list = await client.get(KEYS);
    expect(list.body.apiKeys).toEqual([]);
  });

  it("allows two keys on starter and refuses the third with LIMIT_REACHED", async () => {
    const { client } = await adminOn("starter");
    await createKey(client, { name: "one" });
    await createKey(client, { name: "two" });
    const third = await client.post(KEYS, { name: "three" });
    expectError(third, 403, "LIMIT_REACHED");
    expect(third.body.metric).toBe("api_keys");
    expect(third.body.error).toBe("Your Starter plan allows 2 REST API keys; you have 2. Upgrade to Pro for more.");
    expect((await client.get(KEYS)).body.apiKeys).toHaveLength(2);
  });

  it("frees a slot when a key is revoked", async () => {
    const { client } = await adminOn("starter");
    const one = await createKey(client, { name: "one" });
    await createKey(client, { name: "two" });
    expectError(await client.post(KEYS, { name: "three" }), 403, "LIMIT_REACHED");
    expect((await client.delete(`${KEYS}/${one.id}`)).status).toBe(200);
    await createKey(client, { name: "three" });
  });
});

describe("POST /api/admin/rest-api-keys", () => {
  it("answers 201 {apiKey: {id, name, key, prefix, expiresAt, createdAt}} with a svc_ + 40 hex key", async () => {
    const { client, organization, user } = await adminOn("starter");
    const expiresAt = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
    const res = await client.post(KEYS, { name: "Deploy bot", expiresAt });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("API-Version")).toBe("1");
    const apiKey = res.body.apiKey;
    expect(apiKey).toMatchObject({ name: "Deploy bot" });
    for (const field of ["id", "name", "key", "prefix", "expiresAt", "createdAt"]) expect(apiKey).toHaveProperty(field);
    expect(apiKey.key).toMatch(KEY_FORMAT);
    expect(typeof apiKey.prefix).toBe("string");
    expect(apiKey.prefix.length).toBeGreaterThan(0);
    expect(apiKey.key.startsWith(apiKey.prefix)).toBe(true);
    expect(apiKey.prefix.length).toBeLessThan(apiKey.key.length);
    expect(Date.parse(apiKey.expiresAt)).toBe(Date.parse(expiresAt));
    expect(Math.abs(Date.parse(apiKey.createdAt) - Date.now())).toBeLessThan(60_000);

    // Only a hash is stored, never the key.
    const row = await db.selectFrom("apiKeys").selectAll().where("id", "=", apiKey.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ orgId: organization.id, userId: user.id });
    expect(Object.values(row)).not.toContain(apiKey.key);
  });

  it("accepts a key without expiry (expiresAt null)", async () => {
    const { client } = await adminOn("starter");
    const key = await createKey(client, { name: "forever" });
    expect(key.expiresAt).toBeNull();
  });

  it("refuses an expiresAt in the past with 400", async () => {
    const { client } = await adminOn("starter");
    const res = await client.post(KEYS, { name: "stale", expiresAt: new Date(Date.now() - 3600_000).toISOString() });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain("expiresAt");
    expect((await client.get(KEYS)).body.apiKeys).toHaveLength(0);
  });

  it("refuses a malformed expiresAt and a missing name with 400 VALIDATION_ERROR", async () => {
    const { client } = await adminOn("starter");
    const badDate = await client.post(KEYS, { name: "x", expiresAt: "next tuesday" });
    expectError(badDate, 400, "VALIDATION_ERROR");
    expect(badDate.body.details.map((d: { path: string }) => d.path)).toContain("expiresAt");
    const noName = await client.post(KEYS, {});
    expectError(noName, 400, "VALIDATION_ERROR");
    expect(noName.body.details.map((d: { path: string }) => d.path)).toContain("name");
  });

  it("needs authentication: 401 without a session", async () => {
    expectError(await bare().post(KEYS, { name: "anon" }), 401, "UNAUTHORIZED");
    expectError(await bare().get(KEYS), 401, "UNAUTHORIZED");
  });
});

describe("GET /api/admin/rest-api-keys", () => {
  it("lists keys without the key itself or any hash", async () => {
    const { client } = await adminOn("starter");
    const a = await createKey(client, { name: "alpha" });
    const b = await createKey(client, { name: "beta" });
    const res = await client.get(KEYS);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.apiKeys)).toBe(true);
    expect(res.body.apiKeys.map((k: { id: string }) => k.id).sort()).toEqual([a.id, b.id].sort());
    for (const listed of res.body.apiKeys) {
      const created = listed.id === a.id ? a : b;
      expect(listed).toMatchObject({ id: created.id, name: created.name, prefix: created.prefix, lastUsedAt: null, expiresAt: null });
      expect(listed.createdAt).toBe(created.createdAt);
      expect(listed).not.toHaveProperty("key");
      expect(Object.keys(listed).some((k) => /hash/i.test(k))).toBe(false);
    }
    for (const raw of [a.key, b.key]) {
      expect(res.text).not.toContain(raw);
      expect(res.text).not.toContain(sha256(raw));
    }
  });
});

describe("Bearer API-key authentication", () => {
  it("reaches /api/auth/me and the key list as the creator in the creator's organization", async () => {
    const { client, user, organization } = await adminOn("starter");
    const { key, id } = await createKey(client, { name: "bot" });
    const caller = bare();
    const me = await caller.get("/api/auth/me", { key });
    expect(me.status, me.text).toBe(200);
    expect(me.body.user.id).toBe(user.id);
    expect(me.body.organization).toMatchObject({ id: organization.id, role: "owner", plan: "starter" });
    const list = await caller.get(KEYS, { key });
    expect(list.status).toBe(200);
    expect(list.body.apiKeys.map((k: { id: string }) => k.id)).toEqual([id]);
    expect(caller.jar.size).toBe(0);
  });

  it("records lastUsedAt after use", async () => {
    const { client } = await adminOn("starter");
    const { key, id } = await createKey(client, { name: "bot" });
    expect((await client.get(KEYS)).body.apiKeys[0].lastUsedAt).toBeNull();
    const before = Date.now();
    expect((await bare().get("/api/auth/me", { key })).status).toBe(200);
    const listed = (await client.get(KEYS)).body.apiKeys.find((k: { id: string }) => k.id === id);
    expect(listed.lastUsedAt).not.toBeNull();
    expect(Date.parse(listed.lastUsedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(listed.lastUsedAt)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("refuses a revoked key with 401", async () => {
    const { client } = await adminOn("starter");
    const { key, id } = await createKey(client, { name: "doomed" });
    expect((await bare().get("/api/auth/me", { key })).status).toBe(200);
    const res = await client.delete(`${KEYS}/${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expectError(await bare().get("/api/auth/me", { key }), 401, "UNAUTHORIZED");
    expect((await client.get(KEYS)).body.apiKeys).toEqual([]);
    // Revoking twice: nothing left to revoke.
    expectError(await client.delete(`${KEYS}/${id}`), 404, "NOT_FOUND");
  });

  it("refuses an expired key with 401", async () => {
    const { client } = await adminOn("starter");
    const { key, id } = await createKey(client, { name: "short-lived", expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    expect((await bare().get("/api/auth/me", { key })).status).toBe(200);
    await db
      .updateTable("apiKeys")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", id)
      .execute();
    expectError(await bare().get("/api/auth/me", { key }), 401, "UNAUTHORIZED");
  });

  it("refuses malformed and unknown keys with 401, never as anonymous", async () => {
    const c = bare();
    for (const key of ["svc_123", "svc_" + "g".repeat(40), "sk_" + "a".repeat(40), "svc_" + "A".repeat(40)]) {
      expectError(await c.get("/api/auth/me", { key }), 401, "UNAUTHORIZED");
    }
    // Well-formed but never issued.
    expectError(await c.get("/api/auth/me", { key: "svc_" + "0".repeat(40) }), 401, "UNAUTHORIZED");
    // Not a Bearer scheme at all.
    expectError(await c.get("/api/auth/me", { headers: { Authorization: "Basic dXNlcjpwYXNz" } }), 401, "UNAUTHORIZED");
    // A bad key on a public endpoint is still an error.
    expectError(await c.get("/api/health", { key: "svc_nope" }), 401, "UNAUTHORIZED");
  });
});

describe("roles and organization isolation", () => {
  it("refuses a member with 403 FORBIDDEN on list, create and revoke", async () => {
    const { client, user, organization } = await adminOn("starter");
    const { id } = await createKey(client, { name: "owner's" });
    await db.updateTable("memberships").set({ role: "member" }).where("userId", "=", user.id).where("orgId", "=", organization.id).execute();
    expectError(await client.get(KEYS), 403, "FORBIDDEN");
    expectError(await client.post(KEYS, { name: "sneaky" }), 403, "FORBIDDEN");
    expectError(await client.delete(`${KEYS}/${id}`), 403, "FORBIDDEN");
    const row = await db.selectFrom("apiKeys").select("revokedAt").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.revokedAt).toBeNull();
  });

  it("a key acts with its creator's current role: a demoted creator's key is refused too", async () => {
    const { client, user, organization } = await adminOn("starter");
    const { key } = await createKey(client, { name: "bot" });
    expect((await bare().get(KEYS, { key })).status).toBe(200);
    await db.updateTable("memberships").set({ role: "viewer" }).where("userId", "=", user.id).where("orgId", "=", organization.id).execute();
    expectError(await bare().get(KEYS, { key }), 403, "FORBIDDEN");
  });

  it("answers 404 when revoking another organization's key, which keeps working", async () => {
    const a = await adminOn("starter");
    const b = await adminOn("starter");
    const aKey = await createKey(a.client, { name: "a's key" });
    await createKey(b.client, { name: "b's key" });

    expectError(await b.client.delete(`${KEYS}/${aKey.id}`), 404, "NOT_FOUND");
    expectError(await b.client.delete(`${KEYS}/00000000-0000-0000-0000-000000000000`), 404, "NOT_FOUND");
    expect((await bare().get("/api/auth/me", { key: aKey.key })).status).toBe(200);

    // Each organization lists only its own keys.
    const bList = (await b.client.get(KEYS)).body.apiKeys.map((k: { id: string }) => k.id);
    expect(bList).not.toContain(aKey.id);
    expect(bList).toHaveLength(1);
    // And a's key cannot revoke b's keys either.
    const bKeyId = bList[0];
    expectError(await bare().delete(`${KEYS}/${bKeyId}`, { key: aKey.key }), 404, "NOT_FOUND");
  });
});

describe("per-key rate limit", () => {
  it("allows 60 requests a minute with X-RateLimit-* headers and answers the 61st with 429", async () => {
    const { client } = await adminOn("starter");
    const { key } = await createKey(client, { name: "busy" });
    const caller = bare();
    for (let i = 1; i <= 60; i++) {
      const res = await caller.get("/api/auth/me", { key });
      expect(res.status, `request ${i}: ${res.text}`).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toBe("60");
      expect(res.headers.get("X-RateLimit-Remaining")).toBe(String(60 - i));
      expect(Number(res.headers.get("X-RateLimit-Reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
    }
    const limited = await caller.get("/api/auth/me", { key });
    expectError(limited, 429, "RATE_LIMITED");
    expect(limited.headers.get("X-RateLimit-Limit")).toBe("60");
    expect(limited.headers.get("X-RateLimit-Remaining")).toBe("0");
    const reset = Number(limited.headers.get("X-RateLimit-Reset"));
    expect(reset).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    const retry = Number(limited.headers.get("Retry-After"));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(61);
    expect(limited.headers.get("API-Version")).toBe("1");

    // The limit is per key: the owner's session is unaffected.
    expect((await client.get("/api/auth/me")).status).toBe(200);
  });

  it("refuses a custom rateLimit below Enterprise with 403 PLAN_UPGRADE_REQUIRED", async () => {
    for (const plan of ["starter", "pro"] as const) {
      const { client } = await adminOn(plan);
      const res = await client.post(KEYS, { name: "custom", rateLimit: 3 });
      expectError(res, 403, "PLAN_UPGRADE_REQUIRED");
      expect((await client.get(KEYS)).body.apiKeys).toHaveLength(0);
    }
  });

  it("applies a custom rateLimit on Enterprise: 4th request within a minute gets 429", async () => {
    const { client } = await adminOn("enterprise");
    const { key } = await createKey(client, { name: "throttled", rateLimit: 3 });
    const caller = bare();
    for (let i = 1; i <= 3; i++) {
      const res = await caller.get("/api/auth/me", { key });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toBe("3");
      expect(res.headers.get("X-RateLimit-Remaining")).toBe(String(3 - i));
    }
    const fourth = await caller.get("/api/auth/me", { key });
    expectError(fourth, 429, "RATE_LIMITED");
    expect(fourth.headers.get("X-RateLimit-Limit")).toBe("3");
    expect(Number(fourth.headers.get("Retry-After"))).toBeGreaterThan(0);

    // Other keys of the organization keep the default limit.
    const other = await createKey(client, { name: "default" });
    const res = await caller.get("/api/auth/me", { key: other.key });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-RateLimit-Limit")).toBe("60");
  });

  it("Enterprise has no key count limit", async () => {
    const { client } = await adminOn("enterprise");
    for (let i = 0; i < 12; i++) await createKey(client, { name: `k${i}` });
    expect((await client.get(KEYS)).body.apiKeys).toHaveLength(12);
  });
});
