import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";
import { type Account, setPlan } from "../support/org";
import { serveApp } from "../support/serve";

/**
 * Issue 33, item 5: a JSON-RPC batch is one POST but many calls. Each message
 * counts against the API key's per-minute limit as its own request would
 * (docs/mcp.md, "Authentication"): the calls beyond the limit are answered
 * with the JSON-RPC rate-limit error and never run.
 */

let app: Awaited<ReturnType<typeof serveApp>>;
let owner: Account;
let projectId: string;

async function mint(body: Record<string, unknown>) {
  const res = await owner.client.post("/api/admin/rest-api-keys", body);
  expect(res.status, res.text).toBe(201);
  return res.body.apiKey.key as string;
}

const post = (key: string, body: unknown) =>
  fetch(`${app.url}/mcp`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-06-18",
    },
    body: JSON.stringify(body),
  });

const addComment = (id: number, content: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "add_comment", arguments: { projectId, content } },
});

const comments = async () =>
  Number(
    (
      await db
        .selectFrom("comments")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("projectId", "=", projectId)
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  app = await serveApp();
  owner = await signedUpClient({ name: "Bea Batch" });
  // Enterprise: a key may have its own rate limit.
  await setPlan(owner.organization.id, "enterprise");
  projectId = (await owner.client.post("/api/projects", { name: "Batch target" })).body.id;
});

afterAll(async () => {
  await app?.close();
});

describe("an MCP JSON-RPC batch", () => {
  it("runs at most the key's limit of calls: a key limited to 2 a minute sends 100 add_comment calls in one POST", async () => {
    const key = await mint({ name: "two a minute", scopes: ["write"], rateLimit: 2 });
    const res = await post(
      key,
      Array.from({ length: 100 }, (_, i) => addComment(i + 1, `Spam ${i + 1}`)),
    );
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { id: number; result?: { isError?: boolean }; error?: { code: number; message: string } }[];
    expect(answers).toHaveLength(100);
    const ran = answers.filter((a) => a.result);
    const refused = answers.filter((a) => a.error);
    expect(ran.map((a) => a.id)).toEqual([1, 2]);
    for (const a of ran) expect(a.result?.isError).toBeFalsy();
    expect(refused).toHaveLength(98);
    for (const a of refused) {
      expect(a.error!.code).toBe(-32001);
      expect(a.error!.message).toMatch(/^RATE_LIMITED: Too many requests for this API key; try again in \d+ s$/);
    }
    // The comment count proves it: two comments, not a hundred.
    expect(await comments()).toBe(2);
    expect(res.headers.get("X-RateLimit-Limit")).toBe("2");
    expect(res.headers.get("X-RateLimit-Remaining")).toBe("0");
    // The minute's budget is spent: the next POST is refused as a whole.
    const next = await post(key, addComment(101, "One more"));
    expect(next.status).toBe(429);
    expect(Number(next.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(((await next.json()) as { error: { message: string } }).error.message).toMatch(/^RATE_LIMITED:/);
    expect(await comments()).toBe(2);
  });

  it("costs what the same calls cost as separate POSTs", async () => {
    const before = await comments();
    const key = await mint({ name: "five a minute", scopes: ["write"], rateLimit: 5 });
    // Three messages: three of the five.
    const batch = await post(key, [addComment(1, "First"), addComment(2, "Second"), addComment(3, "Third")]);
    expect(batch.status).toBe(200);
    expect(((await batch.json()) as { result?: unknown }[]).every((a) => a.result)).toBe(true);
    expect(batch.headers.get("X-RateLimit-Remaining")).toBe("2");
    for (const n of [4, 5]) expect((await post(key, addComment(n, `Single ${n}`))).status).toBe(200);
    expect((await post(key, addComment(6, "Sixth"))).status).toBe(429);
    expect((await comments()) - before).toBe(5);
  });

  it("drops notifications over the limit and answers every request in the batch", async () => {
    const before = await comments();
    const key = await mint({ name: "one a minute", scopes: ["write"], rateLimit: 1 });
    const res = await post(key, [addComment(1, "Kept"), { jsonrpc: "2.0", method: "notifications/initialized" }, addComment(2, "Refused")]);
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { id: number; result?: unknown; error?: { message: string } }[];
    expect(answers.map((a) => [a.id, a.result ? "ran" : a.error?.message.split(":")[0]])).toEqual([
      [1, "ran"],
      [2, "RATE_LIMITED"],
    ]);
    expect((await comments()) - before).toBe(1);
  });
});
