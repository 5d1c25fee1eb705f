import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_IDS, type ProviderId } from "~/ai/types";
import { setLogLevel, setLogSink } from "~/utils/log.server";
import { useAiMocks } from "../mocks/server";
import { signedUpClient } from "../support/client";
import { closedPort, mockFor } from "../support/connection";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";

/**
 * "Test connection" through the API: stored personal and organization keys
 * against the provider stand-ins (tests/mocks), and `verify: true` on save.
 * The platform provider and a local server: ai-key-connection-local.test.ts.
 */

const ai = useAiMocks();
const GOOD: Record<ProviderId, string> = {
  provider_a: "sk-good-openai-4f3a9c2b7e1d5a8f0c6b",
  provider_b: "sk-ant-good-anthropic-9d8c7b6a5f4e3d2c",
  provider_c: "AIzaGoodGoogleKey-0123456789abcdefghij",
};
const BAD: Record<ProviderId, string> = {
  provider_a: "sk-bad-openai-0a1b2c3d4e5f6a7b8c9d",
  provider_b: "sk-ant-bad-anthropic-1a2b3c4d5e6f7a8b",
  provider_c: "AIzaBadGoogleKey-zyxwvutsrqponmlkjihg",
};
const ALL_KEYS = [...Object.values(GOOD), ...Object.values(BAD)];
const rejectBadKeys = () => PROVIDER_IDS.forEach((p) => mockFor(ai, p).invalidKeys.add(BAD[p]));

let owner: Account;
let member: Account;
let outsider: Account;
const logLines: string[] = [];
const bodies: string[] = [];

beforeAll(async () => {
  setLogLevel("debug");
  setLogSink((line) => {
    logLines.push(line);
    if (line.startsWith('{"level":"error"')) console.error(line);
  });
  owner = await signedUpClient({ name: "Connie Owner" });
  member = await joinOrg(owner.organization.id, "member", "Mo Member");
  outsider = await signedUpClient({ name: "Otto Outsider" });
  // Tests run more probes than the free plan's AI rate allows in a minute.
  await setPlan(owner.organization.id, "enterprise");
  await setPlan(outsider.organization.id, "enterprise");
});

afterAll(() => {
  setLogLevel();
  setLogSink((line) => {
    if (line.startsWith('{"level":"error"')) console.error(line);
  });
});

/** POST and remember the response text, for the "never echoed" check at the end. */
async function post(account: Account, path: string, json?: unknown) {
  const res = await account.client.post(path, json);
  bodies.push(res.text);
  return res;
}

async function addPersonal(account: Account, provider: ProviderId, key: string) {
  const res = await post(account, "/api/user/api-keys", { provider, key });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe("POST /api/user/api-keys/{keyId}/test", () => {
  it.each(PROVIDER_IDS)("a %s key the provider accepts: ok, with the model and the latency", async (provider) => {
    const id = await addPersonal(member, provider, GOOD[provider]);
    const res = await post(member, `/api/user/api-keys/${id}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ok: true, provider, model: expect.any(String), latencyMs: expect.any(Number), detail: expect.any(String) });
    expect(res.body.detail).toContain(`model ${res.body.model} is available`);
    // One free call, with this key, and nothing billed.
    const calls = mockFor(ai, provider).requests;
    expect(calls.map((r) => r.kind)).toEqual(["probe"]);
    expect(calls[0]!.method).toBe(provider === "provider_c" ? "POST" : "GET");
    expect(calls[0]!.url).toMatch(provider === "provider_c" ? /:countTokens$/ : /\/v1\/models/);
  });

  it.each(PROVIDER_IDS)("a %s key the provider rejects: ok false, unauthorized, in plain words", async (provider) => {
    rejectBadKeys();
    const id = await addPersonal(member, provider, BAD[provider]);
    const res = await post(member, `/api/user/api-keys/${id}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ok: false, provider, reason: "unauthorized", message: expect.any(String) });
    expect(res.body.message).toMatch(/rejected this key \((401|400 API_KEY_INVALID)\)/);
    expect(res.text).not.toContain(BAD[provider].slice(-10));
  });

  it("another user's key is 404, even in the same organization", async () => {
    const id = await addPersonal(member, "provider_a", GOOD.provider_a);
    expectError(await post(owner, `/api/user/api-keys/${id}/test`), 404, "NOT_FOUND");
    expectError(await post(outsider, `/api/user/api-keys/${id}/test`), 404, "NOT_FOUND");
    expectError(await post(member, "/api/user/api-keys/no-such-key/test"), 404, "NOT_FOUND");
    expect(ai.openai.requests).toEqual([]);
  });

  it("answers only POST", async () => {
    const id = await addPersonal(member, "provider_a", GOOD.provider_a);
    const res = await member.client.get(`/api/user/api-keys/${id}/test`);
    expectError(res, 405, "METHOD_NOT_ALLOWED");
  });
});

describe("POST /api/organization/ai-keys/{keyId}/test", () => {
  let orgKeyId: string;
  beforeAll(async () => {
    const res = await owner.client.post("/api/organization/ai-keys", { provider: "provider_b", key: GOOD.provider_b });
    expect(res.status, res.text).toBe(201);
    orgKeyId = res.body.id;
  });

  it("owners and admins test the organization's key", async () => {
    const res = await post(owner, `/api/organization/ai-keys/${orgKeyId}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ ok: true, provider: "provider_b" });
  });

  it("a member is refused (403); another organization's admin gets 404", async () => {
    expectError(await post(member, `/api/organization/ai-keys/${orgKeyId}/test`), 403, "FORBIDDEN");
    expectError(await post(outsider, `/api/organization/ai-keys/${orgKeyId}/test`), 404, "NOT_FOUND");
    // A personal key id is not an organization key.
    const personal = await addPersonal(owner, "provider_a", GOOD.provider_a);
    expectError(await post(owner, `/api/organization/ai-keys/${personal}/test`), 404, "NOT_FOUND");
    expect(ai.anthropic.requests).toEqual([]);
  });
});

describe("verify: true on save", () => {
  it("a personal key the provider rejects is not saved: 400 on `key`, with the probe's result", async () => {
    rejectBadKeys();
    const account = await signedUpClient({ name: "Vera Verify" });
    for (const provider of PROVIDER_IDS) {
      const res = await post(account, "/api/user/api-keys", { provider, key: BAD[provider], verify: true });
      expectError(res, 400, "VALIDATION_ERROR");
      expect(res.body.details).toEqual([{ path: "key", message: res.body.error }]);
      expect(res.body.connection).toMatchObject({ ok: false, provider, reason: "unauthorized" });
    }
    expect((await account.client.get("/api/user/api-keys")).body.apiKeys).toEqual([]);
  });

  it("an accepted key is saved and the answer carries `connection`", async () => {
    const account = await signedUpClient({ name: "Val Verified" });
    const res = await post(account, "/api/user/api-keys", { provider: "provider_a", key: GOOD.provider_a, name: "Work", verify: true });
    expect(res.status, res.text).toBe(201);
    expect(res.body.connection).toMatchObject({
      ok: true,
      provider: "provider_a",
      model: "gpt-4o-mini",
      detail: "model gpt-4o-mini is available (2 models listed)",
    });
    expect(res.body.apiKey).toEqual({ id: res.body.id, provider: "provider_a", name: "Work", createdAt: res.body.createdAt });
    expect((await account.client.get("/api/user/api-keys")).body.apiKeys).toHaveLength(1);
  });

  it("without verify nothing is asked and nothing changes: even a bad key is saved, with no `connection`", async () => {
    rejectBadKeys();
    const account = await signedUpClient({ name: "Nell Noverify" });
    const res = await post(account, "/api/user/api-keys", { provider: "provider_a", key: BAD.provider_a });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["apiKey", "createdAt", "id", "name", "provider"]);
    expect(ai.openai.requests).toEqual([]);
    expectError(await post(account, "/api/user/api-keys", { provider: "provider_a", key: GOOD.provider_a, verify: "yes" }), 400, "VALIDATION_ERROR");
  });

  it("an organization key the provider rejects is not saved; a member cannot even try", async () => {
    rejectBadKeys();
    const res = await post(owner, "/api/organization/ai-keys", { provider: "provider_c", key: BAD.provider_c, verify: true });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(res.body.connection).toMatchObject({ ok: false, reason: "unauthorized" });
    const keys = (await owner.client.get("/api/organization/ai-keys")).body.apiKeys as { provider: string }[];
    expect(keys.map((k) => k.provider)).not.toContain("provider_c");
    expectError(await post(member, "/api/organization/ai-keys", { provider: "provider_c", key: GOOD.provider_c, verify: true }), 403, "FORBIDDEN");
    expect(ai.google.requests).toHaveLength(1);
  });

  it("a provider that cannot be reached does not block saving; the answer says so", async () => {
    const { setEnv } = await import("../support/ai");
    const port = await closedPort();
    setEnv({ ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` });
    try {
      const account = await signedUpClient({ name: "Una Unreachable" });
      const res = await post(account, "/api/user/api-keys", { provider: "provider_b", key: GOOD.provider_b, verify: true });
      expect(res.status, res.text).toBe(201);
      expect(res.body.connection).toEqual({
        ok: false,
        provider: "provider_b",
        reason: "unreachable",
        message: `Could not reach http://127.0.0.1:${port} — is the server running?`,
      });
      expect((await account.client.get("/api/user/api-keys")).body.apiKeys).toHaveLength(1);
    } finally {
      setEnv({ ANTHROPIC_BASE_URL: undefined });
    }
  });
});

describe("secrets", () => {
  it("no key appears in any response or log line", () => {
    expect(logLines.some((l) => l.includes('"msg":"ai connection test"'))).toBe(true);
    for (const text of [...bodies, ...logLines]) {
      for (const key of ALL_KEYS) expect(text).not.toContain(key);
    }
  });
});
