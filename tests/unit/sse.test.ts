import { describe, expect, it, vi } from "vitest";
import { ProviderError } from "~/ai/types";
import { sseResponse, type StreamEvent } from "~/http/api/sse.server";

const decoder = new TextDecoder();

async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>) {
  const { value, done } = await reader.read();
  return done ? null : decoder.decode(value);
}

describe("sseResponse", () => {
  it("sends the SSE headers, including X-Accel-Buffering: no", () => {
    const res = sseResponse(new Request("http://x/"), async function* () {});
    expect(res.headers.get("Content-Type")).toContain("text/event-stream");
    expect(res.headers.get("Cache-Control")).toContain("no-cache");
    expect(res.headers.get("X-Accel-Buffering")).toBe("no");
  });

  it("flushes each event as soon as the producer yields it", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const res = sseResponse(new Request("http://x/"), async function* () {
      yield { type: "content", content: "first" };
      await gate; // the second event is not produced until the test says so
      yield { type: "content", content: "second" };
      yield { type: "done", fullContent: "firstsecond" };
    });
    const reader = res.body!.getReader();
    expect(await readChunk(reader)).toBe(": stream open\n\n");
    // The first event arrives while the producer is still blocked.
    expect(await readChunk(reader)).toBe(`data: ${JSON.stringify({ type: "content", content: "first" })}\n\n`);
    release();
    expect(await readChunk(reader)).toContain('"second"');
    expect(await readChunk(reader)).toContain('"type":"done"');
    expect(await readChunk(reader)).toBeNull();
  });

  it("turns a thrown error into an error event with GENERATION_ERROR and ends", async () => {
    const res = sseResponse(new Request("http://x/"), async function* (): AsyncGenerator<StreamEvent> {
      yield { type: "progress", phase: "drafting", percent: 10 };
      throw new ProviderError("provider_a", "model exploded");
    });
    const text = await res.text();
    const events = text
      .split("\n\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)));
    expect(events).toEqual([
      { type: "progress", phase: "drafting", percent: 10 },
      { type: "error", message: "model exploded", code: "GENERATION_ERROR" },
    ]);
  });

  it("hides the text of an unexpected error and logs it instead", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    // biome-ignore lint/correctness/useYield: a stream that fails before its first event.
    const res = sseResponse(new Request("http://x/"), async function* (): AsyncGenerator<StreamEvent> {
      throw new Error("SQLITE_CORRUPT at /secret/path");
    });
    const text = await res.text();
    expect(text).not.toContain("SQLITE_CORRUPT");
    expect(text).toContain('"code":"GENERATION_ERROR"');
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockReset();
  });

  it("sends heartbeat comments while the producer is quiet", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const res = sseResponse(
      new Request("http://x/"),
      async function* () {
        await gate;
        yield { type: "done", fullContent: "" };
      },
      { heartbeatMs: 20 },
    );
    const reader = res.body!.getReader();
    await readChunk(reader); // stream open
    expect(await readChunk(reader)).toBe(": heartbeat\n\n");
    release();
    let rest = "";
    for (let c = await readChunk(reader); c !== null; c = await readChunk(reader)) rest += c;
    expect(rest).toContain('"type":"done"');
  });

  it("asks the producer for more only while the reader keeps up (a slow client holds the producer back)", async () => {
    let produced = 0;
    const res = sseResponse(new Request("http://x/"), async function* () {
      for (;;) {
        produced++;
        yield { type: "content", content: "x" };
      }
    });
    const reader = res.body!.getReader();
    await readChunk(reader); // stream open
    await new Promise((r) => setTimeout(r, 20));
    // The stream's queue (16 chunks) is full and nobody reads: the producer waits.
    expect(produced).toBeLessThanOrEqual(18);
    for (let i = 0; i < 40; i++) expect(await readChunk(reader)).toContain('"content":"x"');
    await new Promise((r) => setTimeout(r, 20));
    expect(produced).toBeGreaterThanOrEqual(40);
    expect(produced).toBeLessThanOrEqual(40 + 18);
    await reader.cancel();
  });

  it("aborts the producer when the client disconnects", async () => {
    const client = new AbortController();
    let producerSignal: AbortSignal | undefined;
    let cleanedUp = false;
    const res = sseResponse(new Request("http://x/", { signal: client.signal }), async function* (signal) {
      producerSignal = signal;
      try {
        yield { type: "content", content: "a" };
        await new Promise((resolve) => signal.addEventListener("abort", resolve));
        yield { type: "content", content: "never" };
      } finally {
        cleanedUp = true;
      }
    });
    const reader = res.body!.getReader();
    await readChunk(reader);
    expect(await readChunk(reader)).toContain('"a"');
    client.abort();
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 10));
    expect(producerSignal?.aborted).toBe(true);
    expect(cleanedUp).toBe(true);
  });
});
