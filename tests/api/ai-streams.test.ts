import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { ensureSystemTemplates } from "~/domain/templates/system.server";
import { useAiMocks } from "../mocks/server";
import { eventually, openStream, setEnv } from "../support/ai";
import { signedUpClient } from "../support/client";
import { type Account, expectError, setPlan } from "../support/org";
import { expectSseStream } from "../support/sse";

/**
 * Streaming through the providers: chunks pass through in order and
 * concatenate to `done.fullContent`; failures before and during the stream
 * end with an `error` event and save nothing; truncation is reported; a
 * client that goes away aborts the provider call; tokens are metered.
 */

const ai = useAiMocks();
let owner: Account;
let projectId: string;

beforeAll(async () => {
  await ensureSystemTemplates();
  owner = await signedUpClient({ name: "Sam Stream" });
  await setPlan(owner.organization.id, "enterprise");
  projectId = (await owner.client.post("/api/projects", { name: "Route planner", templateId: "sys-lean-one-pager" })).body.id;
  await owner.client.post(`/api/projects/${projectId}/chat`, { message: "Couriers replan routes by hand every morning." });
});

beforeEach(() => setEnv({ OPENAI_API_KEY: "sk-platform-stream-000000000000", ANTHROPIC_API_KEY: "sk-ant-stream-1", GOOGLE_API_KEY: "AIza-stream-2" }));
afterEach(() => setEnv({ OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, GOOGLE_API_KEY: undefined }));

const versions = async () => (await owner.client.get(`/api/projects/${projectId}/prd/versions`)).body.versions as { number: number }[];
const mocks = { provider_a: () => ai.openai, provider_b: () => ai.anthropic, provider_c: () => ai.google };

describe("the SSE contract through each provider", () => {
  for (const provider of ["provider_a", "provider_b", "provider_c"] as const) {
    it(`${provider}: every provider chunk becomes a content event, in order, concatenating to done.fullContent`, async () => {
      const chunks = ["Checkout ", "takes **four** ", "steps; ", "make it two.\n", "Ünïcode ✓"];
      mocks[provider]().queue({ kind: "text", chunks, usage: { input: 321, output: 54 } });
      const res = await owner.client.post("/api/ai/improve", { content: "Checkout is long.", improvementType: "make_concise", provider });
      const { events, last, content } = expectSseStream(res);
      expect(events.filter((e) => e.type === "content").map((e) => e.content)).toEqual(chunks);
      expect(content).toBe(chunks.join(""));
      expect(last).toMatchObject({ provider, keySource: "platform", truncated: false });
      expect(events[0]).toMatchObject({ type: "progress" });
      const call = await db
        .selectFrom("aiCalls")
        .selectAll()
        .where("orgId", "=", owner.organization.id)
        .where("provider", "=", provider)
        .orderBy("createdAt", "desc")
        .executeTakeFirstOrThrow();
      expect(call).toMatchObject({ task: "improve", inputTokens: 321, outputTokens: 54, outcome: "ok", keySource: "platform" });
    });
  }

  it("streams the generated PRD and saves exactly what was streamed as a new version", async () => {
    ai.anthropic.queue({ kind: "text", chunks: ["# Route planner\n\n", "## Problem\nCouriers replan ", "routes by hand.\n"] });
    const res = await owner.client.post("/api/generate-prd/stream", { projectId, provider: "provider_b", regenerate: true });
    const { last } = expectSseStream(res);
    expect(last.fullContent).toBe("# Route planner\n\n## Problem\nCouriers replan routes by hand.\n");
    expect(last.prd.content).toBe(last.fullContent);
    const body = ai.anthropic.requests.at(-1)!.body;
    expect(body.stream).toBe(true);
    expect(JSON.stringify(body.messages)).toContain("Couriers replan routes by hand every morning.");
    expect(body.system).toContain("Lean");
    const events = await db.selectFrom("events").select("data").where("name", "=", "prd.generated").execute();
    expect(events.map((e) => JSON.parse(e.data))).toContainEqual(expect.objectContaining({ projectId, model: "claude-sonnet-5-5" }));
  });
});

describe("failures", () => {
  it("a provider failing mid-stream ends with GENERATION_ERROR and nothing half-saved", async () => {
    const before = await versions();
    ai.openai.queue({ kind: "fail_mid_stream", chunks: ["# Half", " a PRD"] });
    const res = await owner.client.post("/api/generate-prd/stream", { projectId, regenerate: true });
    const { events, last } = expectSseStream(res, "error");
    expect(
      events
        .filter((e) => e.type === "content")
        .map((e) => e.content)
        .join(""),
    ).toBe("# Half a PRD");
    expect(last.message).toMatch(/OpenAI/);
    expect(await versions()).toEqual(before);
    const call = await db.selectFrom("aiCalls").select("outcome").where("task", "=", "generate_prd").orderBy("createdAt", "desc").executeTakeFirstOrThrow();
    expect(call.outcome).toBe("error");
  });

  it("Anthropic's in-stream error event also ends the stream with GENERATION_ERROR", async () => {
    ai.anthropic.queue({ kind: "fail_mid_stream", chunks: ["Partial"] });
    const res = await owner.client.post("/api/ai/code-spec", { content: "# Spec", provider: "provider_b", projectId });
    const { last } = expectSseStream(res, "error");
    expect(last.message).toMatch(/Anthropic/);
    const outputs = await owner.client.get(`/api/projects/${projectId}/ai-outputs?kind=code_spec`);
    expect(outputs.body.outputs).toEqual([]);
  });

  it("an HTTP 500 before the stream starts is an error event on a stream and 502 without one", async () => {
    ai.openai.queue({ kind: "http_error", status: 500 });
    const streamed = expectSseStream(await owner.client.post("/api/ai/user-stories", { content: "# X", source: "prd" }), "error");
    expect(streamed.events.some((e) => e.type === "content")).toBe(false);
    expect(streamed.last.message).toMatch(/500/);
    ai.openai.queue({ kind: "http_error", status: 500 });
    expectError(await owner.client.post("/api/generate-prd", { projectId, regenerate: true }), 502, "PROVIDER_ERROR");
    ai.openai.queue({ kind: "http_error", status: 503 });
    expectError(await owner.client.post(`/api/projects/${projectId}/chat`, { message: "More detail" }), 502, "PROVIDER_ERROR");
  });

  it("a generation cut off by the token limit ends with done truncated: true and is labelled", async () => {
    ai.google.queue({ kind: "text", chunks: ["# Route planner\n", "## Problem\nCouriers"], truncated: true });
    const res = await owner.client.post("/api/generate-prd/stream", { projectId, provider: "provider_c", regenerate: true });
    const { last } = expectSseStream(res);
    expect(last.truncated).toBe(true);
    const latest = (await owner.client.get(`/api/projects/${projectId}/prd/versions`)).body.versions[0];
    expect(latest.label).toMatch(/cut off/i);
    expect(ai.google.requests.at(-1)!.url).toContain(":streamGenerateContent");
  });
});

describe("a client that goes away", () => {
  for (const provider of ["provider_a", "provider_b", "provider_c"] as const) {
    it(`${provider}: aborts the provider call and saves nothing`, async () => {
      const mock = mocks[provider]();
      mock.queue({ kind: "hang" });
      const before = await versions();
      const stream = await openStream(owner, "/api/generate-prd/stream", { projectId, provider, regenerate: true });
      expect(stream.response.headers.get("Content-Type")).toContain("text/event-stream");
      await stream.readUntil('"type":"progress"');
      await eventually(() => mock.requests.length > 0);
      stream.controller.abort();
      await eventually(() => mock.requests.at(-1)!.aborted);
      await eventually(async () => {
        const call = await db.selectFrom("aiCalls").select("outcome").where("provider", "=", provider).orderBy("createdAt", "desc").executeTakeFirst();
        return call?.outcome === "aborted";
      });
      expect(await versions()).toEqual(before);
    });
  }
});

describe("token metering", () => {
  it("adds provider usage to the organization's month and refuses the platform key past the plan's limit", async () => {
    const free = await signedUpClient({ name: "Frida Free" });
    ai.openai.queue({ kind: "text", chunks: ["ok"], usage: { input: 1000, output: 200 } });
    const first = await free.client.post("/api/chat", { messages: [{ role: "user", content: "hi" }] });
    expect(first.body.keySource).toBe("platform");
    const sum = await db
      .selectFrom("aiCalls")
      .select((eb) => eb.fn.sum<number>(eb(eb.ref("inputTokens"), "+", eb.ref("outputTokens"))).as("n"))
      .where("orgId", "=", free.organization.id)
      .executeTakeFirstOrThrow();
    expect(Number(sum.n)).toBe(1200);

    // Spend the rest of the free plan's 100,000 tokens.
    await db
      .insertInto("aiCalls")
      .values({
        id: "spent-tokens",
        orgId: free.organization.id,
        userId: free.user.id,
        projectId: null,
        task: "chat",
        provider: "provider_a",
        model: "gpt-4o-mini",
        keySource: "platform",
        inputTokens: 98_800,
        outputTokens: 0,
        outcome: "ok",
        durationMs: 1,
        createdAt: new Date().toISOString(),
      })
      .execute();
    const refused = await free.client.post("/api/chat", { messages: [{ role: "user", content: "hi" }] });
    expectError(refused, 403, "LIMIT_REACHED");
    expect(refused.body.metric).toBe("ai_tokens");

    // A personal key is billed to its owner: it keeps working.
    await free.client.post("/api/user/api-keys", { provider: "provider_a", key: "sk-free-personal-0000000000" });
    const own = await free.client.post("/api/chat", { messages: [{ role: "user", content: "hi" }] });
    expect(own.status, own.text).toBe(200);
    expect(own.body.keySource).toBe("personal");
  });
});
