import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { db, sqlite } from "~/db.server";
import { ORIGIN, TestClient, signedUpClient, uniqueEmail, GOOD_PASSWORD, type ApiResult } from "../support/client";

let ipCounter = 0;
const freshIp = () => {
  ipCounter++;
  return `10.40.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};
const client = () => new TestClient(freshIp());

const EVIL = "http://evil.example";
const KEYS = "/api/admin/rest-api-keys";

function expectEnvelope(res: ApiResult, status: number, code?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
  expect(typeof res.body).toBe("object");
  expect(typeof res.body.error).toBe("string");
  expect(res.body.error.length).toBeGreaterThan(0);
  expect(typeof res.body.code).toBe("string");
  if (code) expect(res.body.code).toBe(code);
}

/** No stack frames, source paths or exception names in an error body. */
function expectNoStack(res: ApiResult) {
  expect(res.body).not.toHaveProperty("stack");
  expect(res.text).not.toMatch(/\bat\s+[\w$.<>]+\s+\(|\bat\s+(file:\/\/|\/)/);
  expect(res.text).not.toMatch(/\.(ts|js|mjs|cjs|tsx):\d+/);
  expect(res.text).not.toContain(process.cwd());
  expect(res.text).not.toContain("node_modules");
}

async function starterAdmin() {
  const account = await signedUpClient();
  await db.updateTable("organizations").set({ plan: "starter" }).where("id", "=", account.organization.id).execute();
  return account;
}

async function keyCount(orgId: string) {
  const rows = await db.selectFrom("apiKeys").select("id").where("orgId", "=", orgId).execute();
  return rows.length;
}

describe("API-Version", () => {
  it("is 1 on success, error, 404 and 405 responses", async () => {
    const c = client();
    const ok = await c.get("/api/health");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("API-Version")).toBe("1");

    const unauthorized = await c.get("/api/auth/me");
    expectEnvelope(unauthorized, 401, "UNAUTHORIZED");
    expect(unauthorized.headers.get("API-Version")).toBe("1");

    const invalid = await c.post("/api/auth/register", {});
    expectEnvelope(invalid, 400, "VALIDATION_ERROR");
    expect(invalid.headers.get("API-Version")).toBe("1");

    const missing = await c.get("/api/no-such-endpoint");
    expectEnvelope(missing, 404, "NOT_FOUND");
    expect(missing.headers.get("API-Version")).toBe("1");

    const wrongMethod = await c.get("/api/auth/register");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("API-Version")).toBe("1");

    const created = await c.post("/api/auth/register", { name: "V", email: uniqueEmail("ver"), password: GOOD_PASSWORD });
    expect(created.status).toBe(201);
    expect(created.headers.get("API-Version")).toBe("1");
  });

  it("accepts a request naming version 1", async () => {
    const res = await client().get("/api/health", { headers: { "API-Version": "1" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ok" });
  });

  it("refuses another version with 400", async () => {
    const c = client();
    const get = await c.get("/api/health", { headers: { "API-Version": "2" } });
    expectEnvelope(get, 400);
    expect(get.headers.get("API-Version")).toBe("1");

    const email = uniqueEmail("v2");
    const post = await c.post("/api/auth/register", { name: "V2", email, password: GOOD_PASSWORD }, { headers: { "API-Version": "2" } });
    expectEnvelope(post, 400);
    // Refused before doing anything.
    expect(await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();
    expect(c.jar.has("__session")).toBe(false);
  });
});

describe("request bodies", () => {
  it("answers malformed JSON with 400 INVALID_JSON", async () => {
    const c = client();
    for (const body of ['{"email": "a@example.com", ', "{not json}", '{"a":1}}']) {
      const res = await c.call("POST", "/api/auth/sign-in", { body, headers: { "Content-Type": "application/json" } });
      expectEnvelope(res, 400, "INVALID_JSON");
      expectNoStack(res);
    }
  });

  it("answers a JSON body over 1 MB with 413 PAYLOAD_TOO_LARGE", async () => {
    const c = client();
    const big = JSON.stringify({ email: "big@example.com", password: "x".repeat(1024 * 1024 + 10) });
    const res = await c.call("POST", "/api/auth/sign-in", { body: big, headers: { "Content-Type": "application/json" } });
    expectEnvelope(res, 413, "PAYLOAD_TOO_LARGE");
    expect(res.headers.get("API-Version")).toBe("1");

    // Also on an authenticated endpoint.
    const { client: admin } = await starterAdmin();
    const big2 = JSON.stringify({ name: "k", padding: "y".repeat(1_100_000) });
    const res2 = await admin.call("POST", KEYS, { body: big2, headers: { "Content-Type": "application/json" } });
    expectEnvelope(res2, 413, "PAYLOAD_TOO_LARGE");
  });

  it("reads a body just under 1 MB (then validates it normally)", async () => {
    const body = JSON.stringify({ email: "under@example.com", password: "x".repeat(1000 * 1000) });
    expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
    const res = await client().call("POST", "/api/auth/sign-in", { body, headers: { "Content-Type": "application/json" } });
    expectEnvelope(res, 400, "VALIDATION_ERROR");
  });
});

describe("routing errors", () => {
  it("answers an unknown /api path with the 404 NOT_FOUND envelope, for any method", async () => {
    const c = client();
    for (const [method, p] of [
      ["GET", "/api/does-not-exist"],
      ["GET", "/api/auth/nope/deeper"],
      ["POST", "/api/does-not-exist"],
      ["DELETE", "/api/projects-that-are-not-here/123"],
    ] as const) {
      const res = await c.call(method, p, method === "POST" ? { json: {} } : {});
      expectEnvelope(res, 404, "NOT_FOUND");
      expect(res.headers.get("API-Version")).toBe("1");
      expectNoStack(res);
    }
  });

  it("answers a wrong method with 405 and an Allow header", async () => {
    const c = client();
    const cases: [string, string, string[]][] = [
      ["GET", "/api/auth/register", ["POST"]],
      ["DELETE", "/api/health", ["GET"]],
      ["POST", "/api/auth/me", ["GET"]],
      ["PUT", KEYS, ["GET", "POST"]],
      ["GET", `${KEYS}/some-id`, ["DELETE"]],
      ["POST", "/api/auth/verify-email", ["GET"]],
    ];
    for (const [method, p, allowed] of cases) {
      const res = await c.call(method, p, method === "GET" || method === "DELETE" ? {} : { json: {} });
      expectEnvelope(res, 405);
      const allow = (res.headers.get("Allow") ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      expect(allow.sort(), `${method} ${p}`).toEqual([...allowed].sort());
      expect(res.headers.get("API-Version")).toBe("1");
    }
  });
});

describe("CSRF", () => {
  it("refuses a cookie-authenticated POST from a foreign Origin with 403 CSRF_FAILED", async () => {
    const { client: c, organization } = await starterAdmin();
    const res = await c.post(KEYS, { name: "forged" }, { headers: { Origin: EVIL } });
    expectEnvelope(res, 403, "CSRF_FAILED");
    expect(await keyCount(organization.id)).toBe(0);

    // Sign-out is state-changing too: a forged one leaves the session alive.
    const signOut = await c.post("/api/auth/sign-out", {}, { headers: { Origin: EVIL } });
    expectEnvelope(signOut, 403, "CSRF_FAILED");
    expect((await c.get("/api/auth/me")).status).toBe(200);
  });

  it("refuses Sec-Fetch-Site: cross-site (and same-site) with 403", async () => {
    const { client: c, organization } = await starterAdmin();
    const cross = await c.post(KEYS, { name: "x" }, { headers: { "Sec-Fetch-Site": "cross-site" } });
    expectEnvelope(cross, 403, "CSRF_FAILED");
    const sameSite = await c.post(KEYS, { name: "x" }, { headers: { "Sec-Fetch-Site": "same-site" } });
    expectEnvelope(sameSite, 403, "CSRF_FAILED");
    // Even with no Origin at all.
    const noOrigin = await c.call("POST", KEYS, { json: { name: "x" }, headers: { "Sec-Fetch-Site": "cross-site", Origin: "" } });
    expect(noOrigin.status).toBe(403);
    expect(await keyCount(organization.id)).toBe(0);
  });

  it("accepts a same-origin cookie-authenticated POST", async () => {
    const { client: c, organization } = await starterAdmin();
    const res = await c.post(KEYS, { name: "legit" }, { headers: { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" } });
    expect(res.status, res.text).toBe(201);
    expect(await keyCount(organization.id)).toBe(1);
  });

  it("does not refuse a Bearer request with a foreign Origin", async () => {
    const { client: c, organization } = await starterAdmin();
    const created = await c.post(KEYS, { name: "bot" });
    expect(created.status).toBe(201);
    const key = created.body.apiKey.key as string;
    const res = await new TestClient(freshIp()).post(KEYS, { name: "made-by-bot" }, { key, headers: { Origin: EVIL, "Sec-Fetch-Site": "cross-site" } });
    expect(res.status, res.text).toBe(201);
    expect(await keyCount(organization.id)).toBe(2);
  });

  it("does not apply to GET requests", async () => {
    const { client: c } = await signedUpClient();
    const res = await c.get("/api/auth/me", { headers: { Origin: EVIL, "Sec-Fetch-Site": "cross-site" } });
    expect(res.status).toBe(200);
  });
});

describe("error bodies", () => {
  it("never contain a stack trace", async () => {
    const c = client();
    const responses = [
      await c.get("/api/auth/me"),
      await c.post("/api/auth/register", { name: 1, email: [], password: {} }),
      await c.post("/api/auth/sign-in", { email: uniqueEmail("nobody"), password: GOOD_PASSWORD }),
      await c.get("/api/auth/verify-email?token=bogus"),
      await c.get("/api/auth/me", { key: "svc_bogus" }),
      await c.call("POST", "/api/auth/sign-in", { body: "{", headers: { "Content-Type": "application/json" } }),
      await c.call("POST", "/api/auth/sign-in", { body: "<xml/>", headers: { "Content-Type": "application/xml" } }),
      await c.get("/api/auth/register"),
      await c.get("/api/nowhere"),
    ];
    for (const res of responses) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expectEnvelope(res, res.status);
      expectNoStack(res);
    }
  });

  it("turns an unexpected failure into 500 INTERNAL_ERROR without internals", async () => {
    const { client: c } = await starterAdmin();
    // setup.ts spies on console.error; silence it for the failure this test provokes.
    const errorLog = vi.mocked(console.error);
    errorLog.mockImplementation(() => {});
    try {
      // Break the table the key list reads, then put it back.
      sqlite().exec("ALTER TABLE apiKeys RENAME TO apiKeys_hidden");
      let res: ApiResult;
      try {
        res = await c.get(KEYS);
      } finally {
        sqlite().exec("ALTER TABLE apiKeys_hidden RENAME TO apiKeys");
      }
      expectEnvelope(res, 500, "INTERNAL_ERROR");
      expect(res.headers.get("API-Version")).toBe("1");
      expectNoStack(res);
      expect(res.text).not.toMatch(/no such table|sqlite|apiKeys/i);
      // It was logged on the server instead.
      expect(errorLog).toHaveBeenCalled();
    } finally {
      // Clears the expected call and restores the pass-through implementation.
      errorLog.mockReset();
    }
    // And the endpoint works again.
    expect((await c.get(KEYS)).status).toBe(200);
  });
});

/** `api.admin.rest-api-keys.$keyId.ts` -> `/api/admin/rest-api-keys/{keyId}` (Remix flat routes). */
function routePath(file: string): string {
  const name = file.replace(/\.(ts|tsx)$/, "").replace(/\[\.\]/g, "\u0000");
  const segments = name
    .split(".")
    .filter((s) => s !== "_index" && !(s.startsWith("_") && s.length > 1))
    .map((s) => s.replace(/_$/, ""))
    .map((s) => (s.startsWith("$") ? `{${s.slice(1)}}` : s))
    // Remix escapes: "[test]" is the literal segment "test" (vite.config.ts leaves out files named *.test.*).
    .map((s) => s.replace(/\[([^\]]*)\]/g, "$1"));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL stands for "." in these route-file names.
  return `/${segments.join("/")}`.replace(/\u0000/g, ".");
}

describe("GET /api/openapi.json", () => {
  const routeFiles = fs.readdirSync(path.resolve("app/routes")).filter((f) => /^api\..*\.(ts|tsx)$/.test(f) && f !== "api.$.ts" && !f.includes(".test."));
  const expectedPaths = routeFiles.map(routePath);

  it("derives paths from the route files", () => {
    expect(routePath("api.openapi[.]json.ts")).toBe("/api/openapi.json");
    expect(routePath("api.admin.rest-api-keys.$keyId.ts")).toBe("/api/admin/rest-api-keys/{keyId}");
    expect(routePath("api.integrations.slack.[test].ts")).toBe("/api/integrations/slack/test");
    expect(expectedPaths).toContain("/api/auth/register");
    expect(expectedPaths.length).toBeGreaterThanOrEqual(10);
  });

  it("is an OpenAPI 3.1 document listing every /api route with its methods", async () => {
    const c = client();
    const res = await c.get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(res.headers.get("API-Version")).toBe("1");
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(typeof doc.info?.title).toBe("string");
    expect(typeof doc.info?.version).toBe("string");
    expect(typeof doc.paths).toBe("object");

    expect(Object.keys(doc.paths).sort()).toEqual([...expectedPaths].sort());

    const verbs = ["get", "post", "put", "patch", "delete"];
    for (const p of expectedPaths) {
      // The methods the route really serves, from its 405 Allow header.
      const concrete = p.replace(/\{(\w+)\}/g, "probe-$1");
      const probe = await c.call("OPTIONS", concrete);
      expect(probe.status, `OPTIONS ${concrete}`).toBe(405);
      const served = (probe.headers.get("Allow") ?? "")
        .split(",")
        .map((m) => m.trim().toLowerCase())
        .filter(Boolean);
      expect(served.length, `Allow of ${p}`).toBeGreaterThan(0);
      const documented = Object.keys(doc.paths[p]).filter((k) => verbs.includes(k));
      expect(documented.sort(), `methods of ${p}`).toEqual(served.sort());
      for (const m of documented) {
        const op = doc.paths[p][m];
        expect(op.responses, `${m} ${p} responses`).toBeTypeOf("object");
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
        for (const param of p.matchAll(/\{(\w+)\}/g)) {
          expect(op.parameters, `${m} ${p}`).toEqual(expect.arrayContaining([expect.objectContaining({ name: param[1], in: "path", required: true })]));
        }
      }
    }
  });

  it("documents the methods the contract names", async () => {
    const doc = (await client().get("/api/openapi.json")).body;
    const methods = (p: string) => Object.keys(doc.paths[p] ?? {}).sort();
    expect(methods("/api/auth/register")).toEqual(["post"]);
    expect(methods("/api/auth/sign-in")).toEqual(["post"]);
    expect(methods("/api/auth/sign-out")).toEqual(["post"]);
    expect(methods("/api/auth/forgot-password")).toEqual(["post"]);
    expect(methods("/api/auth/reset-password")).toEqual(["post"]);
    expect(methods("/api/auth/change-password")).toEqual(["post"]);
    expect(methods("/api/auth/verify-email")).toEqual(["get"]);
    expect(methods("/api/auth/resend-verification")).toEqual(["post"]);
    expect(methods("/api/admin/rest-api-keys")).toEqual(["get", "post"]);
    expect(methods("/api/admin/rest-api-keys/{keyId}")).toEqual(["delete"]);
    expect(methods("/api/health")).toEqual(["get"]);
    expect(methods("/api/openapi.json")).toEqual(["get"]);
    // Statuses match the contract's choices.
    expect(doc.paths["/api/auth/register"].post.responses).toHaveProperty("201");
    expect(doc.paths["/api/admin/rest-api-keys"].post.responses).toHaveProperty("201");
  });
});
