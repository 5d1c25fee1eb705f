import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { useAiMocks } from "../mocks/server";
import { sentKey, setEnv } from "../support/ai";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";
import { expectSseStream } from "../support/sse";

/**
 * The three providers through their real SDKs against stand-ins that speak
 * each provider's wire format (tests/mocks): key order, the key in each
 * provider's own header, structured output with one retry, failures.
 */

const ai = useAiMocks();
const PLATFORM = "sk-platform-aaaaaaaaaaaaaaaaaaaa";
const ORG = "sk-org-bbbbbbbbbbbbbbbbbbbbbbbb";
const PERSONAL = "sk-personal-cccccccccccccccccccc";

let owner: Account;
let member: Account;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Pia Provider" });
  await setPlan(owner.organization.id, "enterprise");
  member = await joinOrg(owner.organization.id, "member", "Mel Member");
});

afterEach(() => setEnv({ OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, GOOGLE_API_KEY: undefined }));

const chat = (account: Account, extra: Record<string, unknown> = {}) =>
  account.client.post("/api/chat", { messages: [{ role: "user", content: "Summarise the rollout plan" }], ...extra });

describe("key order: personal, then organization, then platform, then the offline drafter", () => {
  it("sends the right key for each caller and says which answered", async () => {
    setEnv({ OPENAI_API_KEY: PLATFORM });
    const orgKey = await owner.client.post("/api/organization/ai-keys", { provider: "provider_a", key: ORG });
    expect(orgKey.status, orgKey.text).toBe(201);
    const personal = await member.client.post("/api/user/api-keys", { provider: "provider_a", key: PERSONAL });
    expect(personal.status, personal.text).toBe(201);

    const viaPersonal = await chat(member);
    expect(viaPersonal.status, viaPersonal.text).toBe(200);
    expect(viaPersonal.body).toMatchObject({ role: "assistant", provider: "provider_a", keySource: "personal", model: "gpt-4o-mini" });
    expect(viaPersonal.body.content).toContain("Summarise the rollout plan");
    expect(sentKey(ai.openai.requests.at(-1)!.headers)).toBe(PERSONAL);
    expect(ai.openai.requests.at(-1)!.headers.authorization).toBe(`Bearer ${PERSONAL}`);

    const viaOrg = await chat(owner);
    expect(viaOrg.body.keySource).toBe("organization");
    expect(sentKey(ai.openai.requests.at(-1)!.headers)).toBe(ORG);

    await owner.client.delete(`/api/organization/ai-keys/${orgKey.body.id}`);
    const viaPlatform = await chat(owner);
    expect(viaPlatform.body.keySource).toBe("platform");
    expect(sentKey(ai.openai.requests.at(-1)!.headers)).toBe(PLATFORM);

    setEnv({ OPENAI_API_KEY: undefined });
    const count = ai.openai.requests.length;
    const offline = await chat(owner);
    expect(offline.body).toMatchObject({ provider: "builtin", model: "builtin", keySource: "builtin" });
    expect(ai.openai.requests.length).toBe(count);
    await member.client.delete(`/api/user/api-keys/${personal.body.id}`);
  });

  it("an explicit provider picks that provider; each key reaches its provider in its own header", async () => {
    const anthropicKey = "sk-ant-personal-dddddddddddddddd";
    const googleKey = "AIzaSyPersonal-eeeeeeeeeeeeeeeeeeee";
    await member.client.post("/api/user/api-keys", { provider: "provider_b", key: anthropicKey });
    await member.client.post("/api/user/api-keys", { provider: "provider_c", key: googleKey });

    const claude = await chat(member, { provider: "provider_b" });
    expect(claude.status, claude.text).toBe(200);
    expect(claude.body).toMatchObject({ provider: "provider_b", keySource: "personal", model: "claude-sonnet-5-5" });
    const sentToAnthropic = ai.anthropic.requests.at(-1)!;
    expect(sentKey(sentToAnthropic.headers)).toBe(anthropicKey);
    expect(sentToAnthropic.headers["anthropic-version"]).toEqual(expect.any(String));
    expect(sentToAnthropic.body.system).toEqual(expect.any(String));

    const gemini = await chat(member, { provider: "provider_c" });
    expect(gemini.body).toMatchObject({ provider: "provider_c", keySource: "personal", model: "gemini-2.5-flash" });
    expect(ai.google.requests.at(-1)!.headers["x-goog-api-key"]).toBe(googleKey);
    expect(ai.google.requests.at(-1)!.url).toContain("/models/gemini-2.5-flash:streamGenerateContent");

    // No provider named: the first provider with a personal key (provider_b before provider_c).
    const first = await chat(member);
    expect(first.body.provider).toBe("provider_b");

    // A named provider with no key anywhere falls back to the offline drafter.
    const none = await chat(member, { provider: "provider_a" });
    expect(none.body.model).toBe("builtin");

    const keys = (await member.client.get("/api/user/api-keys")).body.apiKeys as { id: string; lastUsedAt: string | null }[];
    expect(keys.every((k) => k.lastUsedAt)).toBe(true);
    for (const k of keys) await member.client.delete(`/api/user/api-keys/${k.id}`);
  });

  it("never returns or logs the key when the provider refuses it", async () => {
    setEnv({ OPENAI_API_KEY: PLATFORM });
    ai.openai.queue({ kind: "http_error", status: 401, message: `Incorrect API key provided: ${PLATFORM}` });
    const res = await chat(owner);
    expectError(res, 502, "PROVIDER_ERROR");
    expect(res.body).toMatchObject({ provider: "provider_a", providerStatus: 401 });
    expect(res.text).not.toContain(PLATFORM);
    expect(res.body.error).toMatch(/refused the API key/);
  });
});

describe("structured answers", () => {
  const suggestion = (title: string) => ({ section: "Goals", type: "metrics", title, description: "Add a target.", severity: "high" });
  const valid = { suggestions: [suggestion("One"), suggestion("Two"), suggestion("Three")] };

  it("ask each provider for JSON through its own structured-output feature", async () => {
    setEnv({ OPENAI_API_KEY: PLATFORM, ANTHROPIC_API_KEY: "sk-ant-platform-fff", GOOGLE_API_KEY: "AIza-platform-ggg" });
    for (const provider of ["provider_a", "provider_b", "provider_c"] as const) {
      const res = await owner.client.post("/api/ai/suggestions", { content: "# Checkout\n\n## Goals\n- Faster", provider });
      expect(res.status, res.text).toBe(200);
      expect(res.body.provider).toBe(provider);
      expect(res.body.suggestions.length).toBeGreaterThanOrEqual(3);
    }
    const openaiBody = ai.openai.requests.at(-1)!.body;
    expect(openaiBody.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "suggestions" } });
    expect(openaiBody.response_format.json_schema.schema.properties.suggestions.minItems).toBe(3);
    const anthropicBody = ai.anthropic.requests.at(-1)!.body;
    expect(anthropicBody.tool_choice).toEqual({ type: "tool", name: "suggestions" });
    expect(anthropicBody.tools[0].input_schema.type).toBe("object");
    const googleBody = ai.google.requests.at(-1)!.body;
    expect(googleBody.generationConfig).toMatchObject({ responseMimeType: "application/json" });
    expect(googleBody.generationConfig.responseSchema.properties.suggestions.type).toBe("array");
    expect(JSON.stringify(googleBody.generationConfig.responseSchema)).not.toContain("additionalProperties");
  });

  it("retries once with the validation errors, then succeeds", async () => {
    setEnv({ OPENAI_API_KEY: PLATFORM });
    ai.openai.queue({ kind: "json", value: { suggestions: [suggestion("Only one")] } }, { kind: "json", value: valid });
    const res = await owner.client.post("/api/ai/suggestions", { content: "# Checkout" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.suggestions.map((s: { title: string }) => s.title)).toEqual(["One", "Two", "Three"]);
    expect(ai.openai.requests).toHaveLength(2);
    const retry = ai.openai.requests[1]!.body.messages.at(-1);
    expect(retry.role).toBe("user");
    expect(retry.content).toMatch(/suggestions: .*3/);
    const calls = await db.selectFrom("aiCalls").select("outcome").where("task", "=", "suggestions").orderBy("createdAt").execute();
    expect(calls.slice(-2).map((c) => c.outcome)).toEqual(["invalid", "ok"]);
  });

  it("fails with 502 PROVIDER_ERROR when the answer is invalid twice (also through Anthropic tool use)", async () => {
    setEnv({ ANTHROPIC_API_KEY: "sk-ant-platform-fff" });
    ai.anthropic.queue({ kind: "raw_json_text", text: '{"suggestions": []}' }, { kind: "raw_json_text", text: '{"oops": true}' });
    const res = await owner.client.post("/api/ai/roadmap", { prdContent: "# Plan", teamSize: "small", methodology: "scrum", provider: "provider_b" });
    expectError(res, 502, "PROVIDER_ERROR");
    expect(res.body.error).toMatch(/did not match the expected roadmap format, twice/);
    expect(ai.anthropic.requests).toHaveLength(2);
  });

  it("answers a provider outage or rate limit with 502 PROVIDER_ERROR", async () => {
    setEnv({ GOOGLE_API_KEY: "AIza-platform-ggg" });
    ai.google.queue({ kind: "http_error", status: 500 });
    const down = await owner.client.post("/api/ai/suggestions", { content: "# Checkout" });
    expectError(down, 502, "PROVIDER_ERROR");
    expect(down.body.providerStatus).toBe(500);
    ai.google.queue({ kind: "http_error", status: 429, retryAfterSeconds: 7 });
    const limited = await owner.client.post("/api/memory/extract", { conversation: [{ role: "user", content: "We use Postgres." }] });
    expectError(limited, 502, "PROVIDER_ERROR");
    expect(limited.body.error).toMatch(/rate-limiting/);
  });
});

describe("timeouts", () => {
  it("a provider that does not answer within AI_TIMEOUT_MS is a 502 and its request is cancelled", async () => {
    setEnv({ OPENAI_API_KEY: PLATFORM, AI_TIMEOUT_MS: "1000" });
    try {
      ai.openai.queue({ kind: "hang" });
      const res = await owner.client.post("/api/ai/suggestions", { content: "# Checkout" });
      expectError(res, 502, "PROVIDER_ERROR");
      expect(res.body.error).toMatch(/did not answer in time/);
      expect(ai.openai.requests.at(-1)!.aborted).toBe(true);
    } finally {
      setEnv({ AI_TIMEOUT_MS: undefined });
    }
  });
});

describe("coach through a provider", () => {
  it("streams the review summary and ends with the provider's validated review", async () => {
    setEnv({ OPENAI_API_KEY: PLATFORM });
    const review = {
      overallScore: 72,
      executiveSummary: "Solid problem statement; metrics are thin.",
      dimensions: { clarity: 80, completeness: 70, userFocus: 75, technicalFeasibility: 65, metrics: 50, riskAssessment: 60 },
      strengths: ["Clear problem"],
      improvements: [{ priority: "high", suggestion: "Add a baseline and target to each goal" }],
      missingSections: ["Risks"],
      recommendations: [{ effort: "low", impact: "high", description: "Quantify goals" }],
    };
    ai.openai.queue({ kind: "json", value: review });
    const { last, content } = expectSseStream(await owner.client.post("/api/ai/coach", { prdContent: "# Checkout\n\n## Problem\nSlow." }));
    expect(last.review).toEqual(review);
    expect(last).toMatchObject({ provider: "provider_a", model: "gpt-4o-mini", keySource: "platform" });
    expect(content).toContain("Add a baseline and target to each goal");
  });
});

describe("the builder through a provider", () => {
  it("sends the description, what is covered and open, every earlier answer, and asks the model to challenge weak answers", async () => {
    setEnv({ OPENAI_API_KEY: PLATFORM });
    const project = (
      await owner.client.post("/api/projects", {
        name: "Bin finder",
        description: "Warehouse pickers lose 20 minutes a shift looking for bins, which costs us overtime.",
      })
    ).body.id;
    ai.openai.queue({ kind: "text", chunks: ["Noted. What is the target for lost minutes, and by when?"] });
    await owner.client.post(`/api/projects/${project}/chat`, { message: "Primary: pickers. Secondary: shift leads." });
    ai.openai.queue({ kind: "text", chunks: ["A number would help: from 20 minutes to what?"] });
    await owner.client.post(`/api/projects/${project}/chat`, { message: "Make it faster." });
    const sent = ai.openai.requests.at(-1)!.body.messages as { role: string; content: string }[];
    const systemPrompt = sent.find((m) => m.role === "system")!.content;
    expect(systemPrompt).toContain("Description: Warehouse pickers lose 20 minutes a shift looking for bins");
    // The description covers the problem and the first answer the users; the model is told so.
    expect(systemPrompt).toMatch(/Already covered by the project description and the answers so far: [^\n]*Problem[^\n]*Target Users/);
    expect(systemPrompt).toMatch(/Still open: [^\n]*Goals and Success Metrics/);
    expect(systemPrompt).toContain("Challenge a weak answer");
    expect(sent.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["Primary: pickers. Secondary: shift leads.", "Make it faster."]);
  });

  it("reads an imported PRD first: the builder and the writer get it, and the sections it fills count as covered", async () => {
    setEnv({ OPENAI_API_KEY: PLATFORM });
    const project = (await owner.client.post("/api/projects", { name: "Imported plan" })).body.id;
    const imported =
      "# Imported plan\n\n## Goals and Success Metrics\n- Cut search time from 20 to 5 minutes a shift by June 2027.\n\n---\n\n_Imported from “plan.docx”._\n";
    expect((await owner.client.post(`/api/projects/${project}/prd`, { content: imported })).status).toBe(201);
    ai.openai.queue({ kind: "text", chunks: ["Who uses it?"] });
    await owner.client.post(`/api/projects/${project}/chat`, { message: "Pickers lose 20 minutes a shift looking for bins." });
    const builderSystem = (ai.openai.requests.at(-1)!.body.messages as { role: string; content: string }[]).find((m) => m.role === "system")!.content;
    expect(builderSystem).toContain("<current_prd>");
    expect(builderSystem).toContain("Cut search time from 20 to 5 minutes a shift by June 2027.");
    expect(builderSystem).toMatch(/Already covered by the project description and the answers so far: [^\n]*Goals and Success Metrics/);
    ai.openai.queue({ kind: "text", chunks: ["# Imported plan\n\n## Problem\nPickers lose time.\n"] });
    await owner.client.post("/api/generate-prd", { projectId: project, style: "lean", regenerate: true });
    const writerSystem = (ai.openai.requests.at(-1)!.body.messages as { role: string; content: string }[]).find((m) => m.role === "system")!.content;
    expect(writerSystem).toContain("Keep its content, in its words");
    expect(writerSystem).toContain("Cut search time from 20 to 5 minutes");
  });

  it("asks the model's next question and ends when the model asks none", async () => {
    setEnv({ OPENAI_API_KEY: PLATFORM });
    const project = (await owner.client.post("/api/projects", { name: "Model interview" })).body.id;
    ai.openai.queue({ kind: "text", chunks: ["Got it: pickers lose time. ", "Who approves a new bin layout?"] });
    const first = await owner.client.post(`/api/projects/${project}/chat`, { message: "Pickers lose 20 minutes a shift." });
    expect(first.body).toMatchObject({ nextQuestion: "Got it: pickers lose time. Who approves a new bin layout?", model: "gpt-4o-mini" });
    const sent = ai.openai.requests.at(-1)!.body.messages;
    expect(sent.at(-1)).toEqual({ role: "user", content: "Pickers lose 20 minutes a shift." });
    ai.openai.queue({ kind: "text", chunks: ["That covers everything. Press Generate PRD."] });
    const second = await owner.client.post(`/api/projects/${project}/chat`, { message: "The shift lead." });
    expect(second.body.nextQuestion).toBeNull();
    const conversation = await owner.client.get(`/api/projects/${project}/conversation`);
    expect(conversation.body).toMatchObject({ complete: true, nextQuestion: null });
    expect(conversation.body.qaPairs.map((p: { question: string }) => p.question)[1]).toBe(first.body.nextQuestion);
  });
});
