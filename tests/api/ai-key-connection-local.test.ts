import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "../mocks/openai-server";
import { setEnv } from "../support/ai";
import { signedUpClient } from "../support/client";
import { closedPort } from "../support/connection";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";

/**
 * "Test connection" for the server's own provider (POST
 * /api/organization/ai-keys/platform/{provider}/test): how an operator checks
 * a local OpenAI-compatible server (Ollama, llama.cpp) configured with only
 * OPENAI_BASE_URL. Real HTTP over loopback, the real openai SDK.
 */

const PLATFORM = "/api/organization/ai-keys/platform";
let server: FakeOpenAI;
let guarded: FakeOpenAI;
let owner: Account;
let member: Account;

beforeAll(async () => {
  server = await startFakeOpenAI();
  guarded = await startFakeOpenAI({ apiKey: "local-secret-7f3e9a" });
  owner = await signedUpClient({ name: "Ollie Operator" });
  member = await joinOrg(owner.organization.id, "member", "Mia Member");
  await setPlan(owner.organization.id, "enterprise");
});

afterEach(() => setEnv({ OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined, OPENAI_MODEL: undefined }));
afterAll(async () => {
  await server.close();
  await guarded.close();
});

describe("a local OpenAI-compatible server", () => {
  it("answers: ok, with the configured model found in /v1/models and no key of ours sent", async () => {
    setEnv({ OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_MODEL: "fake-model" });
    const res = await owner.client.post(`${PLATFORM}/provider_a/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      provider: "provider_a",
      model: "fake-model",
      latencyMs: expect.any(Number),
      detail: "model fake-model is available (1 model listed)",
    });
    const probe = server.requests.at(-1)!;
    expect(probe.path).toBe("/v1/models");
    expect(probe.headers.authorization).toBe("Bearer not-needed");
  });

  it("says when the configured model is not among the server's models (ok: a llama.cpp server answers to any name)", async () => {
    setEnv({ OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_MODEL: "llama3.2" });
    const res = await owner.client.post(`${PLATFORM}/provider_a/test`);
    expect(res.body).toMatchObject({ ok: true, model: "llama3.2" });
    expect(res.body.detail).toContain("llama3.2 is not among the 1 model listed");
    expect(res.body.detail).toContain("ollama pull llama3.2");
  });

  it("nothing listening at the base URL: unreachable, naming the URL", async () => {
    const port = await closedPort();
    setEnv({ OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` });
    const res = await owner.client.post(`${PLATFORM}/provider_a/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ok: false,
      provider: "provider_a",
      reason: "unreachable",
      message: `Could not reach http://127.0.0.1:${port}/v1 — is the server running?`,
    });
  });

  it("a server that wants a key (llama.cpp --api-key): unauthorized without it, ok with OPENAI_API_KEY", async () => {
    setEnv({ OPENAI_BASE_URL: `${guarded.url}/v1` });
    const refused = await owner.client.post(`${PLATFORM}/provider_a/test`);
    expect(refused.body).toEqual({
      ok: false,
      provider: "provider_a",
      reason: "unauthorized",
      message: `The server at ${guarded.url}/v1 rejected this key (401). Check that it was copied whole and has not been revoked.`,
    });
    setEnv({ OPENAI_BASE_URL: `${guarded.url}/v1`, OPENAI_API_KEY: "local-secret-7f3e9a" });
    const accepted = await owner.client.post(`${PLATFORM}/provider_a/test`);
    expect(accepted.body).toMatchObject({ ok: true, provider: "provider_a" });
    expect(accepted.text).not.toContain("local-secret-7f3e9a");
  });

  it("a base URL without /v1 (the server answers 404): not_found, with the hint", async () => {
    setEnv({ OPENAI_BASE_URL: server.url });
    const res = await owner.client.post(`${PLATFORM}/provider_a/test`);
    expect(res.body).toMatchObject({ ok: false, reason: "not_found" });
    expect(res.body.message).toBe(`${server.url} answered 404: check the base URL (an OpenAI-compatible server's usually ends in /v1).`);
  });
});

describe("who may test the platform provider, and which", () => {
  it("members are refused (403)", async () => {
    setEnv({ OPENAI_BASE_URL: `${server.url}/v1` });
    expectError(await member.client.post(`${PLATFORM}/provider_a/test`), 403, "FORBIDDEN");
  });

  it("a provider the environment does not configure is 404; an unknown provider id is 400", async () => {
    const res = await owner.client.post(`${PLATFORM}/provider_b/test`);
    expectError(res, 404, "NOT_FOUND");
    expect(res.body.error).toBe("This server's environment configures no Anthropic key or base URL");
    const unknown = await owner.client.post(`${PLATFORM}/openai/test`);
    expectError(unknown, 400, "VALIDATION_ERROR");
    expect(unknown.body.details[0].path).toBe("provider");
  });

  it("is listed in the OpenAPI document with the other test endpoints", async () => {
    const doc = (await owner.client.get("/api/openapi.json")).body;
    for (const path of [`${PLATFORM}/{provider}/test`, "/api/organization/ai-keys/{keyId}/test", "/api/user/api-keys/{keyId}/test"]) {
      expect(Object.keys(doc.paths[path] ?? {}), path).toEqual(["post"]);
      expect(doc.paths[path].post.responses["200"].content["application/json"].schema.anyOf).toHaveLength(2);
    }
    const body = doc.paths["/api/user/api-keys"].post.requestBody.content["application/json"].schema;
    expect(body.properties.verify.type).toBe("boolean");
  });
});
