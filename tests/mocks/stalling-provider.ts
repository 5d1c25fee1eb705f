import http from "node:http";
import type { AddressInfo } from "node:net";
import { openaiStream } from "./openai";

/**
 * A loopback stand-in for all three AI providers that starts its answer and
 * then stops talking, as a provider (or a proxy in front of it) does when
 * it stalls. Real HTTP on 127.0.0.1, each provider's own wire format:
 *
 *   POST /v1/chat/completions                      OpenAI (OPENAI_BASE_URL=<url>/v1)
 *   POST /v1/messages                              Anthropic (ANTHROPIC_BASE_URL=<url>)
 *   POST /v1beta/models/<m>:streamGenerateContent  Gemini, alt=sse (GOOGLE_API_BASE_URL=<url>)
 *   POST /v1beta/models/<m>:generateContent        Gemini, not streamed
 *
 * `mode`:
 *   stall    a stream: headers and one text chunk (`FIRST_CHUNK`), then
 *            nothing; a plain answer: headers and half of its JSON body
 *   trickle  a stream: a chunk every `trickleMs`, never ending
 *
 * Every request is recorded with `closed`, set when the caller's socket
 * closes (the response itself is never ended, so only the caller can end it).
 */
export const FIRST_CHUNK = "Stalled after ";

export interface StalledRequest {
  provider: "provider_a" | "provider_b" | "provider_c";
  streamed: boolean;
  closed: boolean;
}

export async function startStallingProvider(options: { trickleMs?: number } = {}) {
  const timers = new Set<NodeJS.Timeout>();
  const stand = {
    url: "",
    mode: "stall" as "stall" | "trickle",
    requests: [] as StalledRequest[],
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = http.createServer(async (req, res) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const body = JSON.parse(Buffer.concat(parts).toString("utf8") || "{}");
    const path = (req.url ?? "/").split("?")[0]!;
    const provider =
      path === "/v1/chat/completions" ? "provider_a" : path === "/v1/messages" ? "provider_b" : path.startsWith("/v1beta/") ? "provider_c" : null;
    if (!provider) {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: `No stand-in for ${req.method} ${path}` } }));
    }
    const streamed = provider === "provider_c" ? path.endsWith(":streamGenerateContent") : body.stream === true;
    const record: StalledRequest = { provider, streamed, closed: false };
    stand.requests.push(record);
    res.on("close", () => {
      record.closed = true;
    });
    res.socket?.setNoDelay(true);

    if (!streamed) {
      const text = JSON.stringify(plainAnswer(provider, body));
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.write(text.slice(0, Math.floor(text.length / 2)));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
    const format = streamFormat(provider, body);
    res.write(format.start);
    res.write(format.chunk(FIRST_CHUNK));
    if (stand.mode === "stall") return;
    let n = 0;
    const timer = setInterval(() => {
      if (record.closed) return clearInterval(timer);
      res.write(format.chunk(`tick ${++n} `));
    }, options.trickleMs ?? 100);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stand.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stand;
}

/** The first events of a streamed answer and one text chunk, as each provider writes them. */
function streamFormat(provider: StalledRequest["provider"], body: any) {
  if (provider === "provider_a") {
    const s = openaiStream(body);
    return { start: s.start(), chunk: s.content };
  }
  if (provider === "provider_b") {
    const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const message = { id: "msg_stall", type: "message", role: "assistant", model: body.model, content: [], stop_reason: null, stop_sequence: null };
    return {
      start:
        event("message_start", { message: { ...message, usage: { input_tokens: 12, output_tokens: 1 } } }) +
        event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      chunk: (text: string) => event("content_block_delta", { index: 0, delta: { type: "text_delta", text } }),
    };
  }
  return {
    start: "",
    chunk: (text: string) =>
      `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text }], role: "model" }, index: 0 }], usageMetadata: { promptTokenCount: 12 } })}\r\n\r\n`,
  };
}

/** A whole non-streamed answer (of which only half is ever sent). */
function plainAnswer(provider: StalledRequest["provider"], body: any) {
  const text = JSON.stringify({ suggestions: [] });
  if (provider === "provider_a") {
    return {
      id: "chatcmpl-stall",
      object: "chat.completion",
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
    };
  }
  if (provider === "provider_b") {
    return {
      id: "msg_stall",
      type: "message",
      role: "assistant",
      model: body.model,
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      usage: { input_tokens: 12, output_tokens: 4 },
    };
  }
  return { candidates: [{ content: { parts: [{ text }], role: "model" }, finishReason: "STOP", index: 0 }] };
}
