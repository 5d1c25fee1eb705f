import { afterEach, describe, expect, it } from "vitest";
import { useAiMocks } from "../mocks/server";
import { setEnv } from "../support/ai";
import { signedUpClient } from "../support/client";
import { expectError } from "../support/org";
import { parseSse } from "../support/sse";

/**
 * The plan's AI rate (docs/ai.md: free 10 a minute) counts requests that
 * reach a provider; the offline drafter costs nothing and is not counted
 * (docs/ai.md). Providers answer through their real SDKs against
 * the stand-ins in tests/mocks.
 */

const ai = useAiMocks();
afterEach(() => setEnv({ OPENAI_API_KEY: undefined }));

describe("the AI rate limit", () => {
  it("does not count requests the offline drafter answers", async () => {
    const free = await signedUpClient({ name: "Olga Offline" });
    for (let i = 0; i < 14; i++) {
      const res = await free.client.post("/api/ai/suggestions", { content: "# Idea\n\n## Problem\nCheckout is slow." });
      expect(res.status, `request ${i + 1}: ${res.text}`).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toBeNull();
    }
    const coach = await free.client.post("/api/ai/coach", { prdContent: "# Idea" });
    expect(coach.status).toBe(200);
  });

  it("counts chat, generation and tools that reach a provider, per user against the plan", async () => {
    setEnv({ OPENAI_API_KEY: "sk-platform-rate-aaaaaaaaaaaaaaaa" });
    const free = await signedUpClient({ name: "Fay Free" });
    const before = ai.openai.requests.length;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await free.client.post("/api/chat", { messages: [{ role: "user", content: `Question ${i}` }] });
      statuses.push(res.status);
      if (i === 0) expect(res.headers.get("X-RateLimit-Limit")).toBe("10");
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    expect(ai.openai.requests.length - before).toBe(10);
    const sse = await free.client.post("/api/ai/coach", { prdContent: "# Idea" });
    expectError(sse, 429, "RATE_LIMITED");
    expect(parseSse(sse.text)).toEqual([]);
    // Another user of the same plan has a budget of their own.
    const other = await signedUpClient({ name: "Otto Other" });
    expect((await other.client.post("/api/chat", { messages: [{ role: "user", content: "Hi" }] })).status).toBe(200);
  });
});
