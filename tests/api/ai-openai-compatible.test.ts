import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { db } from "~/db.server";
import { ensureSystemTemplates } from "~/domain/templates/system.server";
import { startFakeOpenAI } from "../mocks/openai-server";
import { signedUpClient } from "../support/client";
import { type Account, setPlan } from "../support/org";
import { expectSseStream } from "../support/sse";

/**
 * A local OpenAI-compatible server (as Ollama, llama.cpp or vLLM would be)
 * configured with OPENAI_BASE_URL alone: no key anywhere, real HTTP over
 * loopback, the real openai SDK.
 */

let server: Awaited<ReturnType<typeof startFakeOpenAI>>;
let owner: Account;

beforeAll(async () => {
  server = await startFakeOpenAI({ chunkDelayMs: 1 });
  process.env.OPENAI_BASE_URL = `${server.url}/v1`;
  process.env.OPENAI_MODEL = "llama3.1";
  resetConfigForTests();
  await ensureSystemTemplates();
  owner = await signedUpClient({ name: "Local Llama" });
  await setPlan(owner.organization.id, "pro");
});

afterAll(async () => {
  delete process.env.OPENAI_BASE_URL;
  delete process.env.OPENAI_MODEL;
  resetConfigForTests();
  await server.close();
});

describe("provider_a through OPENAI_BASE_URL", () => {
  it("answers the builder, generates the PRD from the answers and meters the tokens", async () => {
    const project = (await owner.client.post("/api/projects", { name: "Local model", templateId: "sys-lean-one-pager" })).body.id;
    const chat = await owner.client.post(`/api/projects/${project}/chat`, { message: "Warehouse pickers lose 20 minutes a shift looking for bins." });
    expect(chat.status, chat.text).toBe(200);
    expect(chat.body).toMatchObject({ model: "llama3.1", provider: "provider_a", keySource: "platform" });

    const res = await owner.client.post("/api/generate-prd/stream", { projectId: project });
    const { last } = expectSseStream(res);
    expect(last).toMatchObject({ model: "llama3.1", provider: "provider_a", truncated: false });
    expect(last.fullContent).toContain("20 minutes a shift");
    const prd = await owner.client.get(`/api/projects/${project}/prd`);
    expect(prd.body.prd.content).toBe(last.fullContent);

    // The local server received the template's system prompt and the answers, without an API key of ours.
    const generation = server.requests.at(-1)!;
    expect(JSON.stringify(generation.body)).toContain("Warehouse pickers");
    expect(generation.body.stream).toBe(true);
    expect(generation.body.max_tokens).toBeGreaterThan(0);

    const calls = await db.selectFrom("aiCalls").selectAll().where("orgId", "=", owner.organization.id).execute();
    expect(calls.map((c) => c.task).sort()).toEqual(["builder", "generate_prd"]);
    for (const c of calls) expect(c).toMatchObject({ provider: "provider_a", model: "llama3.1", keySource: "platform", outcome: "ok" });
    expect(calls.every((c) => c.inputTokens > 0 && c.outputTokens > 0)).toBe(true);
  });

  it("answers structured tools with schema-valid JSON", async () => {
    const res = await owner.client.post("/api/ai/roadmap", { prdContent: "# Plan\n\n## Requirements\n- Scan bins", teamSize: "small", methodology: "kanban" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.model).toBe("llama3.1");
    expect(res.body.roadmap.phases.length).toBeGreaterThan(0);
  });
});
