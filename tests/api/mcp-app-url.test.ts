import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setEnv } from "../support/ai";
import { ORIGIN, signedUpClient } from "../support/client";
import { type Account, setPlan } from "../support/org";

/**
 * Issue 33, item 8 (the /mcp part): without APP_URL the same-origin rule can
 * only compare a browser's Origin with the request's own Host, and a name an
 * attacker rebinds to this server (DNS rebinding) is then "same origin". /mcp
 * has no browser callers, so in production without APP_URL any request a
 * browser marks is refused; MCP clients, which send no Origin, still work.
 */

let owner: Account;
let key: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Uma Url" });
  await setPlan(owner.organization.id, "pro");
  const res = await owner.client.post("/api/admin/rest-api-keys", { name: "agent", scopes: ["read"] });
  expect(res.status, res.text).toBe(201);
  key = res.body.apiKey.key;
});

const saved = { NODE_ENV: process.env.NODE_ENV, APP_URL: process.env.APP_URL };
afterEach(() => setEnv(saved));

/** tools/list with the key; `headers` as a browser page would add them. */
const listTools = (headers: Record<string, string> = {}) =>
  owner.client.call("POST", "/mcp", {
    key,
    json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    headers: { Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18", ...headers },
  });

describe("/mcp in production without APP_URL", () => {
  it("refuses a browser's request even when its Origin matches the request's own Host (a rebound name)", async () => {
    setEnv({ NODE_ENV: "production", APP_URL: undefined });
    // The page at http://localhost:3000 (the Host this request names): "same origin" by the Host alone.
    const rebound = await listTools({ Origin: ORIGIN });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    expect(rebound.body.error.message).toMatch(/APP_URL/);
    // Fetch metadata alone marks a browser too.
    expect((await listTools({ "Sec-Fetch-Site": "same-origin" })).status).toBe(403);
    // An MCP client sends neither: served.
    const client = await listTools();
    expect(client.status, client.text).toBe(200);
    expect(client.body.result.tools.length).toBeGreaterThan(0);
  });

  it("trusts APP_URL's origin once it is set, and keeps serving same-host browsers in development", async () => {
    setEnv({ NODE_ENV: "production", APP_URL: ORIGIN });
    expect((await listTools({ Origin: ORIGIN })).status).toBe(200);
    expect((await listTools({ Origin: "http://rebound.example" })).status).toBe(403);
    setEnv({ NODE_ENV: "development", APP_URL: undefined });
    expect((await listTools({ Origin: ORIGIN })).status).toBe(200);
  });
});
