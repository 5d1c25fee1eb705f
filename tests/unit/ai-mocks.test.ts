import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenerativeAI, GoogleGenerativeAIError, GoogleGenerativeAIFetchError, SchemaType } from "@google/generative-ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod/v4";
import { extractionSchema, reviewSchema, roadmapSchema, scoreSchema, suggestionsSchema } from "~/ai/schemas";
import { sampleFromSchema } from "../mocks/json-from-schema";
import { startFakeOpenAI } from "../mocks/openai-server";
import { useAiMocks } from "../mocks/server";

/** The AI stand-ins driven by the real SDKs: they must read what the stand-ins write as they read the providers. */

const ai = useAiMocks();
const QUESTION = "How do warehouse pickers find bins faster?";
const ECHO = `Echo: ${QUESTION}`;
const user = [{ role: "user" as const, content: QUESTION }];
const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
/** The error a promise rejects with (fails if it resolves). */
const rejection = (p: Promise<unknown>): Promise<any> =>
  p.then(
    () => Promise.reject(new Error("expected a rejection")),
    (e: unknown) => e,
  );

describe("sampleFromSchema", () => {
  const schemas = { reviewSchema, scoreSchema, suggestionsSchema, roadmapSchema, extractionSchema };
  it.each(Object.entries(schemas))("produces a valid answer for %s", (_, schema) => {
    const value = sampleFromSchema(z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }));
    expect(() => (schema as z.ZodType).parse(value)).not.toThrow();
  });

  it("respects minItems, enums, bounds, nullable and $ref", () => {
    const value: any = sampleFromSchema({
      type: "object",
      $defs: { tag: { type: "string", enum: ["a", "b"] } },
      properties: {
        list: { type: "array", minItems: 3, maxItems: 5, items: { $ref: "#/$defs/tag" } },
        n: { type: "integer", minimum: 1, maximum: 10 },
        x: { anyOf: [{ type: "number", exclusiveMinimum: 0 }, { type: "null" }] },
        s: { type: "STRING", nullable: true, minLength: "20" },
      },
      required: ["list", "n", "x", "s"],
    });
    expect(value).toEqual({ list: ["a", "a", "a"], n: 5, x: 1, s: expect.stringMatching(/^sample text.{9}$/) });
  });
});

describe("OpenAI stand-in", () => {
  const client = () => new OpenAI({ apiKey: "sk-test-openai", maxRetries: 0 });

  it("answers text with an echo, usage and the key in authorization", async () => {
    const res = await client().chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "system", content: "Be brief." }, ...user] });
    expect(res.choices[0]!.message.content).toBe(ECHO);
    expect(res.choices[0]!.finish_reason).toBe("stop");
    expect(res.usage).toMatchObject({ prompt_tokens: Math.ceil((9 + QUESTION.length) / 4), completion_tokens: Math.ceil(ECHO.length / 4) });
    expect(ai.openai.requests[0]).toMatchObject({ kind: "chat", stream: false, aborted: false, method: "POST" });
    expect(ai.openai.requests[0]!.headers.authorization).toBe("Bearer sk-test-openai");
  });

  it("streams the echo in several chunks with a final usage chunk", async () => {
    const stream = await client().chat.completions.create({ model: "m", messages: user, stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe(ECHO);
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBeGreaterThan(2);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("stop");
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage!.completion_tokens).toBe(Math.ceil(ECHO.length / 4));
  });

  it("answers json_schema requests with schema-valid JSON, or the queued value", async () => {
    const schema = z.toJSONSchema(suggestionsSchema, { io: "output", unrepresentable: "any" }) as Record<string, unknown>;
    const response_format = { type: "json_schema" as const, json_schema: { name: "suggestions", schema, strict: false } };
    const res = await client().chat.completions.create({ model: "m", messages: user, response_format });
    expect(suggestionsSchema.parse(JSON.parse(res.choices[0]!.message.content!)).suggestions).toHaveLength(3);
    ai.openai.queue({ kind: "json", value: { ok: 1 } }, { kind: "raw_json_text", text: "{not json" });
    expect(JSON.parse((await client().chat.completions.create({ model: "m", messages: user, response_format })).choices[0]!.message.content!)).toEqual({
      ok: 1,
    });
    expect((await client().chat.completions.create({ model: "m", messages: user, response_format })).choices[0]!.message.content).toBe("{not json");
  });

  it("flags truncation with finish_reason length", async () => {
    ai.openai.queue({ kind: "text", chunks: ["Cut ", "off"], truncated: true, usage: { input: 7, output: 900 } });
    const res = await client().chat.completions.create({ model: "m", messages: user });
    expect(res.choices[0]).toMatchObject({ finish_reason: "length", message: { content: "Cut off" } });
    expect(res.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 900 });
  });

  it("returns errors as the SDK's own classes with status, type and rate-limit headers", async () => {
    ai.openai.queue({ kind: "http_error", status: 429, retryAfterSeconds: 7 }, { kind: "http_error", status: 500 }, { kind: "http_error", status: 401 });
    const limited = await rejection(client().chat.completions.create({ model: "m", messages: user }));
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect(limited).toMatchObject({ status: 429, code: "rate_limit_exceeded" });
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(limited.headers.get("x-ratelimit-remaining-requests")).toBe("0");
    expect(await rejection(client().chat.completions.create({ model: "m", messages: user, stream: true }))).toBeInstanceOf(OpenAI.InternalServerError);
    const denied = await rejection(client().chat.completions.create({ model: "m", messages: user }));
    expect(denied).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(denied).toMatchObject({ status: 401, code: "invalid_api_key", type: "invalid_request_error" });
  });

  it("drops the connection mid-stream after the given chunks", async () => {
    ai.openai.queue({ kind: "fail_mid_stream", chunks: ["one ", "two "] });
    const got: string[] = [];
    const stream = await client().chat.completions.create({ model: "m", messages: user, stream: true });
    const error = await rejection(
      (async () => {
        for await (const c of stream) got.push(c.choices[0]?.delta.content ?? "");
      })(),
    );
    expect(got.join("")).toBe("one two ");
    expect(error).toBeInstanceOf(Error);
  });

  it("records an abort while hanging and mid-stream", async () => {
    ai.openai.queue({ kind: "hang" });
    const ac = new AbortController();
    const pending = client().chat.completions.create({ model: "m", messages: user }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    expect(await rejection(pending)).toBeInstanceOf(OpenAI.APIUserAbortError);
    expect(ai.openai.requests[0]!.aborted).toBe(true);

    const stream = await client().chat.completions.create({ model: "m", messages: user, stream: true });
    for await (const _ of stream) break; // the SDK aborts the request when the loop stops early
    expect(ai.openai.requests[1]!.aborted).toBe(true);
  });

  it("embeds deterministically (base64 by default, or floats), with queued errors", async () => {
    const texts = ["warehouse bin scanning for pickers", "pickers scanning warehouse bins", "quarterly tax filing deadline"];
    const b64 = await client().embeddings.create({ model: "text-embedding-3-small", input: texts });
    const floats = await client().embeddings.create({ model: "text-embedding-3-small", input: texts, encoding_format: "float" });
    const v = floats.data.map((d) => d.embedding);
    expect(v[0]).toHaveLength(64);
    b64.data.forEach((d, i) => d.embedding.forEach((x, j) => expect(x).toBeCloseTo(v[i]![j]!, 5)));
    expect(cosine(v[0]!, v[1]!)).toBeGreaterThan(cosine(v[0]!, v[2]!));
    expect(ai.openai.requests.map((r) => r.kind)).toEqual(["embed", "embed"]);
    ai.openai.queue({ kind: "http_error", status: 429 });
    expect(await rejection(client().embeddings.create({ model: "e", input: "x" }))).toBeInstanceOf(OpenAI.RateLimitError);
  });
});

describe("Anthropic stand-in", () => {
  const client = () => new Anthropic({ apiKey: "sk-ant-test", maxRetries: 0 });
  const base = { model: "claude-test", max_tokens: 1024, system: "Be brief.", messages: user };
  const tool = {
    name: "answer",
    description: "The answer",
    input_schema: {
      type: "object" as const,
      properties: { verdict: { type: "string", enum: ["yes", "no"] }, score: { type: "integer", minimum: 0, maximum: 10 } },
      required: ["verdict", "score"],
    },
  };

  it("answers text with usage; the SDK sends the key as Authorization: Bearer", async () => {
    const msg = await client().messages.create(base);
    expect(msg.content[0]).toMatchObject({ type: "text", text: ECHO });
    expect(msg).toMatchObject({
      stop_reason: "end_turn",
      usage: { input_tokens: Math.ceil((9 + QUESTION.length) / 4), output_tokens: Math.ceil(ECHO.length / 4) },
    });
    expect(ai.anthropic.requests[0]!.headers.authorization).toBe("Bearer sk-ant-test");
    expect(ai.anthropic.requests[0]!.headers["anthropic-version"]).toBeTruthy();
  });

  it("streams text deltas and accumulates the final message", async () => {
    const stream = client().messages.stream(base);
    const deltas: string[] = [];
    stream.on("text", (t) => deltas.push(t));
    const final = await stream.finalMessage();
    expect(deltas.join("")).toBe(ECHO);
    expect(deltas.length).toBeGreaterThan(2);
    expect(final.usage).toMatchObject({ input_tokens: Math.ceil((9 + QUESTION.length) / 4), output_tokens: Math.ceil(ECHO.length / 4) });
  });

  it("answers a forced tool with a tool_use block, streamed as input_json_delta", async () => {
    const params = { ...base, tools: [tool], tool_choice: { type: "tool" as const, name: "answer" } };
    const msg = await client().messages.create(params);
    expect(msg.stop_reason).toBe("tool_use");
    expect(msg.content[0]).toMatchObject({ type: "tool_use", name: "answer", input: { verdict: "yes", score: 5 } });
    ai.anthropic.queue({ kind: "json", value: { verdict: "no", score: 2 } }, { kind: "raw_json_text", text: "nope {" });
    const streamed = await client().messages.stream(params).finalMessage();
    expect(streamed.content[0]).toMatchObject({ type: "tool_use", input: { verdict: "no", score: 2 } });
    expect((await client().messages.create(params)).content[0]).toMatchObject({ type: "text", text: "nope {" });
  });

  it("flags truncation with stop_reason max_tokens", async () => {
    ai.anthropic.queue({ kind: "text", truncated: true }, { kind: "text", truncated: true });
    expect((await client().messages.create(base)).stop_reason).toBe("max_tokens");
    expect((await client().messages.stream(base).finalMessage()).stop_reason).toBe("max_tokens");
  });

  it("returns errors as the SDK's own classes with type and request-id", async () => {
    ai.anthropic.queue({ kind: "http_error", status: 429, retryAfterSeconds: 3 }, { kind: "http_error", status: 529 });
    const limited = await rejection(client().messages.create(base));
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect(limited).toMatchObject({ status: 429, type: "rate_limit_error" });
    expect(limited.requestID).toMatch(/^req_/);
    expect(limited.headers.get("retry-after")).toBe("3");
    const overloaded = await rejection(client().messages.create({ ...base, stream: true }));
    expect(overloaded).toBeInstanceOf(Anthropic.APIError);
    expect(overloaded).toMatchObject({ status: 529, type: "overloaded_error" });
  });

  it("sends an error event mid-stream", async () => {
    ai.anthropic.queue({ kind: "fail_mid_stream", chunks: ["one ", "two "] });
    const got: string[] = [];
    const stream = await client().messages.create({ ...base, stream: true });
    const error = await rejection(
      (async () => {
        for await (const e of stream) if (e.type === "content_block_delta" && e.delta.type === "text_delta") got.push(e.delta.text);
      })(),
    );
    expect(got.join("")).toBe("one two ");
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect(error.type).toBe("overloaded_error");
  });

  it("records an abort while hanging and mid-stream", async () => {
    ai.anthropic.queue({ kind: "hang" });
    const ac = new AbortController();
    const pending = client().messages.create(base, { signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    expect(await rejection(pending)).toBeInstanceOf(Anthropic.APIUserAbortError);
    expect(ai.anthropic.requests[0]!.aborted).toBe(true);

    const stream = client().messages.stream(base);
    stream.on("text", () => stream.abort());
    expect(await rejection(stream.finalMessage())).toBeInstanceOf(Anthropic.APIUserAbortError);
    expect(ai.anthropic.requests[1]!.aborted).toBe(true);
  });
});

describe("Gemini stand-in", () => {
  const model = (generationConfig?: object) =>
    new GoogleGenerativeAI("AIza-test").getGenerativeModel({ model: "gemini-2.0-flash", systemInstruction: "Be brief.", generationConfig });

  it("answers text with usageMetadata and the key in x-goog-api-key", async () => {
    const { response } = await model().generateContent(QUESTION);
    expect(response.text()).toBe(ECHO);
    expect(response.candidates![0]!.finishReason).toBe("STOP");
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: Math.ceil((9 + QUESTION.length) / 4), candidatesTokenCount: Math.ceil(ECHO.length / 4) });
    expect(ai.google.requests[0]!.headers["x-goog-api-key"]).toBe("AIza-test");
    expect(ai.google.requests[0]!.url).toBe("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent");
  });

  it("streams over SSE and aggregates the response", async () => {
    const result = await model().generateContentStream(QUESTION);
    const parts: string[] = [];
    for await (const c of result.stream) parts.push(c.text());
    expect(parts.join("")).toBe(ECHO);
    expect(parts.length).toBeGreaterThan(2);
    expect((await result.response).usageMetadata!.candidatesTokenCount).toBe(Math.ceil(ECHO.length / 4));
    expect(ai.google.requests[0]).toMatchObject({ stream: true, url: expect.stringContaining(":streamGenerateContent?alt=sse") });
  });

  it("answers responseSchema requests with JSON and flags MAX_TOKENS", async () => {
    const responseSchema = {
      type: SchemaType.OBJECT,
      properties: { name: { type: SchemaType.STRING }, tags: { type: SchemaType.ARRAY, items: { type: SchemaType.STRING } } },
      required: ["name", "tags"],
    };
    const { response } = await model({ responseMimeType: "application/json", responseSchema }).generateContent(QUESTION);
    expect(JSON.parse(response.text())).toEqual({ name: "sample text", tags: ["sample text"] });
    ai.google.queue({ kind: "text", truncated: true });
    expect((await model().generateContent(QUESTION)).response.candidates![0]!.finishReason).toBe("MAX_TOKENS");
  });

  it("returns errors as GoogleGenerativeAIFetchError with status and RetryInfo", async () => {
    ai.google.queue({ kind: "http_error", status: 429, retryAfterSeconds: 12 });
    const error = await rejection(model().generateContent(QUESTION));
    expect(error).toBeInstanceOf(GoogleGenerativeAIFetchError);
    expect(error).toMatchObject({ status: 429, statusText: "Too Many Requests" });
    expect(error.message).toContain("Resource has been exhausted");
    expect(error.errorDetails).toEqual([{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "12s" }]);
  });

  it("drops the connection mid-stream after the given chunks", async () => {
    ai.google.queue({ kind: "fail_mid_stream", chunks: ["one ", "two "] });
    const result = await model().generateContentStream(QUESTION);
    const aggregated = rejection(result.response); // the SDK's tee rejects this too: handle it
    const got: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const c of result.stream) got.push(c.text());
      })(),
    );
    expect(got.join("")).toBe("one two ");
    expect(error).toBeInstanceOf(GoogleGenerativeAIError);
    expect(await aggregated).toBeInstanceOf(GoogleGenerativeAIError);
  });

  it("records an abort while hanging and mid-stream", async () => {
    ai.google.queue({ kind: "hang" });
    const ac = new AbortController();
    const pending = model().generateContent(QUESTION, { signal: ac.signal });
    setTimeout(() => ac.abort(), 20);
    expect((await rejection(pending)).message).toMatch(/aborted/i);
    expect(ai.google.requests[0]!.aborted).toBe(true);

    const mid = new AbortController();
    const result = await model().generateContentStream(QUESTION, { signal: mid.signal });
    const aggregated = rejection(result.response);
    const error = await rejection(
      (async () => {
        for await (const _ of result.stream) mid.abort();
      })(),
    );
    // SDK quirk: its nested pump catch re-wraps the AbortError, so a mid-stream abort reads as "Error reading from the stream".
    expect(error).toBeInstanceOf(GoogleGenerativeAIError);
    expect(await aggregated).toBeInstanceOf(GoogleGenerativeAIError);
    expect(ai.google.requests[1]!.aborted).toBe(true);
  });

  it("embeds single and batched content deterministically", async () => {
    const m = new GoogleGenerativeAI("AIza-test").getGenerativeModel({ model: "text-embedding-004" });
    const one = await m.embedContent("warehouse bin scanning for pickers");
    const batch = await m.batchEmbedContents({
      requests: ["warehouse bin scanning for pickers", "pickers scanning warehouse bins", "quarterly tax filing deadline"].map((text) => ({
        content: { role: "user", parts: [{ text }] },
      })),
    });
    const [a, b, c] = batch.embeddings.map((e) => e.values);
    expect(one.embedding.values).toEqual(a);
    expect(a).toHaveLength(64);
    expect(cosine(a!, b!)).toBeGreaterThan(cosine(a!, c!));
    expect(ai.google.requests.map((r) => r.kind)).toEqual(["embed", "embed"]);
  });
});

describe("all stand-ins", () => {
  it("refuse a request without a key, as the providers do", async () => {
    const post = (url: string) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const openai = await post("https://api.openai.com/v1/chat/completions");
    expect([openai.status, (await openai.json()).error.type]).toEqual([401, "invalid_request_error"]);
    const anthropic = await post("https://api.anthropic.com/v1/messages");
    expect([anthropic.status, (await anthropic.json()).error.type]).toEqual([401, "authentication_error"]);
    const google = await post("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent");
    expect([google.status, (await google.json()).error.status]).toEqual([403, "PERMISSION_DENIED"]);
  });
});

describe("loopback OpenAI-compatible server", () => {
  let server: Awaited<ReturnType<typeof startFakeOpenAI>>;
  beforeAll(async () => (server = await startFakeOpenAI({ chunks: 6, chunkDelayMs: 2, stampChunks: true })));
  afterAll(() => server.close());
  const client = () => new OpenAI({ apiKey: "unused", baseURL: `${server.url}/v1`, maxRetries: 0 });

  it("streams exactly `chunks` stamped chunks of the echo, with usage and [DONE]", async () => {
    const before = performance.timeOrigin + performance.now();
    const stream = await client().chat.completions.create({ model: "llama3.1", messages: user, stream: true, stream_options: { include_usage: true } });
    const contents: string[] = [];
    let usage;
    for await (const c of stream) {
      if (c.choices[0]?.delta.content) contents.push(c.choices[0].delta.content);
      if (c.usage) usage = c.usage;
    }
    expect(contents).toHaveLength(6);
    const stamps = contents.map((c) => Number(/⟦t=([\d.]+)⟧/.exec(c)![1]));
    expect(stamps.every((t, i) => t >= before && (i === 0 || t >= stamps[i - 1]!))).toBe(true);
    expect(contents.map((c) => c.replace(/⟦t=[\d.]+⟧/, "")).join("")).toBe(ECHO);
    expect(usage).toMatchObject({ prompt_tokens: Math.ceil(QUESTION.length / 4) });
    expect(server.requests.at(-1)).toMatchObject({ path: "/v1/chat/completions", body: { stream: true, model: "llama3.1" } });
  });

  it("pads short answers, answers json_schema, embeddings and models", async () => {
    const short = await client().chat.completions.create({ model: "llama3.1", messages: [{ role: "user", content: "hi" }] });
    expect(short.choices[0]!.message.content).toMatch(/^Echo: hi lorem ipsum/);
    const schema = z.toJSONSchema(roadmapSchema, { io: "output", unrepresentable: "any" }) as Record<string, unknown>;
    const structured = await client().chat.completions.create({
      model: "llama3.1",
      messages: user,
      response_format: { type: "json_schema", json_schema: { name: "roadmap", schema } },
    });
    expect(roadmapSchema.parse(JSON.parse(structured.choices[0]!.message.content!)).phases).toHaveLength(1);
    expect((await client().embeddings.create({ model: "nomic-embed-text", input: ["a", "b"] })).data).toHaveLength(2);
    expect((await client().models.list()).data.map((m) => m.id)).toContain("llama3.1");
  });
});

describe("requests no stand-in answers", () => {
  it("fail instead of reaching the internet; loopback stand-ins are reached for real", async () => {
    await expect(fetch("https://api.example.net/unexpected")).rejects.toThrow();
    // msw says why on console.error; expected here, so it does not fail the test.
    const errors = vi.mocked(console.error);
    expect(errors.mock.calls.flat().join(" ")).toContain("GET https://api.example.net/unexpected");
    errors.mockClear();
    const local = await startFakeOpenAI();
    try {
      const res = await fetch(`${local.url}/v1/models`);
      expect(res.status).toBeLessThan(500);
    } finally {
      await local.close();
    }
  });
});
