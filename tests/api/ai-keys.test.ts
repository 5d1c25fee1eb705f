import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg } from "../support/org";

/** Personal (BYOK) and organization AI provider keys: write-only, encrypted, masked, scoped. */

let owner: Account;
let member: Account;
let outsider: Account;
const SECRET = "sk-live-abcdefghijklmnopqrstuvwxyz0123456789";

beforeAll(async () => {
  owner = await signedUpClient({ name: "Kim Owner" });
  member = await joinOrg(owner.organization.id, "member", "Mo Member");
  outsider = await signedUpClient({ name: "Otto" });
});

describe("personal provider keys", () => {
  it("adds a key: answers {id, provider, name, createdAt}, never the key", async () => {
    const res = await member.client.post("/api/user/api-keys", { provider: "provider_a", key: SECRET, name: "My OpenAI" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(String), provider: "provider_a", name: "My OpenAI", createdAt: expect.any(String) });
    expect(res.body.apiKey).toEqual({ id: res.body.id, provider: "provider_a", name: "My OpenAI", createdAt: res.body.createdAt });
    expect(res.text).not.toContain(SECRET);
  });

  it("lists masked keys only", async () => {
    const res = await member.client.get("/api/user/api-keys");
    expect(res.status).toBe(200);
    expect(res.body.apiKeys).toEqual([
      {
        id: expect.any(String),
        provider: "provider_a",
        name: "My OpenAI",
        key: "sk-…6789",
        maskedKey: "sk-…6789",
        scope: "user",
        lastUsedAt: null,
        createdAt: expect.any(String),
      },
    ]);
    expect(res.text).not.toContain(SECRET);
  });

  it("stores the key encrypted (AES-256-GCM), not in clear text", async () => {
    const row = await db.selectFrom("aiProviderKeys").selectAll().where("userId", "=", member.user.id).executeTakeFirstOrThrow();
    expect(row.keyEncrypted).not.toContain(SECRET);
    expect(row.keyEncrypted).not.toContain("abcdefghij");
    const { decrypt } = await import("~/utils/crypto.server");
    expect(decrypt(row.keyEncrypted)).toBe(SECRET);
  });

  it("replaces the previous key of the same provider", async () => {
    const next = await member.client.post("/api/user/api-keys", { provider: "provider_a", key: "sk-second-key-000000000000" });
    const list = await member.client.get("/api/user/api-keys");
    expect(list.body.apiKeys).toHaveLength(1);
    expect(list.body.apiKeys[0]).toMatchObject({ id: next.body.id, name: null, key: "sk-…0000" });
  });

  it("refuses unknown providers and empty keys with details", async () => {
    const bad = await member.client.post("/api/user/api-keys", { provider: "openai", key: "x" });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.details[0].path).toBe("provider");
    const empty = await member.client.post("/api/user/api-keys", { provider: "provider_b", key: "  " });
    expectError(empty, 400, "VALIDATION_ERROR");
    expect(empty.body.details[0].path).toBe("key");
  });

  it("is private to its user: others can neither see nor delete it", async () => {
    const [mine] = (await member.client.get("/api/user/api-keys")).body.apiKeys;
    expect((await owner.client.get("/api/user/api-keys")).body.apiKeys).toEqual([]);
    expectError(await owner.client.delete(`/api/user/api-keys/${mine.id}`), 404, "NOT_FOUND");
    expectError(await outsider.client.delete(`/api/user/api-keys/${mine.id}`), 404, "NOT_FOUND");
    const del = await member.client.delete(`/api/user/api-keys/${mine.id}`);
    expect(del.body).toEqual({ success: true });
    expect((await member.client.get("/api/user/api-keys")).body.apiKeys).toEqual([]);
  });
});

describe("organization provider keys", () => {
  it("owners and admins manage them; members are refused", async () => {
    expectError(await member.client.get("/api/organization/ai-keys"), 403, "FORBIDDEN");
    expectError(await member.client.post("/api/organization/ai-keys", { provider: "provider_b", key: "sk-ant-xyz-123456789" }), 403, "FORBIDDEN");
    const res = await owner.client.post("/api/organization/ai-keys", { provider: "provider_b", key: "sk-ant-xyz-123456789", name: "Team Claude" });
    expect(res.status, res.text).toBe(201);
    expect(res.text).not.toContain("sk-ant-xyz-123456789");
    const list = await owner.client.get("/api/organization/ai-keys");
    expect(list.body.apiKeys).toEqual([expect.objectContaining({ provider: "provider_b", scope: "organization", key: "sk-…6789", name: "Team Claude" })]);
    expect((await outsider.client.get("/api/organization/ai-keys")).body.apiKeys).toEqual([]);
    expectError(await outsider.client.delete(`/api/organization/ai-keys/${res.body.id}`), 404, "NOT_FOUND");
    const audit = await db.selectFrom("auditLogs").select(["action", "metadata"]).where("targetId", "=", res.body.id).execute();
    expect(audit.map((a) => a.action)).toContain("ai_key.organization_added");
    expect(audit.map((a) => a.metadata).join()).not.toContain("sk-ant-xyz-123456789");
    expect((await owner.client.delete(`/api/organization/ai-keys/${res.body.id}`)).body).toEqual({ success: true });
  });

  it("are documented in the OpenAPI document", async () => {
    const doc = (await owner.client.get("/api/openapi.json")).body;
    for (const path of ["/api/user/api-keys", "/api/user/api-keys/{keyId}", "/api/organization/ai-keys", "/api/organization/ai-keys/{keyId}"]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    for (const path of [
      "/api/chat",
      "/api/projects/{projectId}/chat",
      "/api/projects/{projectId}/conversation/stream",
      "/api/generate-prd",
      "/api/generate-prd/stream",
      "/api/projects/{projectId}/chat-export",
      "/api/ai/coach",
      "/api/ai/improve",
      "/api/ai/suggestions",
      "/api/ai/user-stories",
      "/api/ai/technical-specs",
      "/api/ai/roadmap",
      "/api/ai/code-spec",
      "/api/ai/launch-content",
      "/api/ai/wireframe",
      "/api/projects/{projectId}/score",
      "/api/memory",
      "/api/memory/extract",
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths["/api/ai/coach"].post.responses["200"].content["text/event-stream"]).toBeDefined();
  });
});
