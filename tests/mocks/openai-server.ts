import http from "node:http";
import type { AddressInfo } from "node:net";
import { sampleFromSchema } from "./json-from-schema";
import { openaiChatContext, openaiCompletion, openaiEmbeddings, openaiError, openaiStream } from "./openai";
import { splitText, tokens } from "./scenario";

/**
 * A loopback OpenAI-compatible server (as Ollama, llama.cpp or vLLM would
 * be): real HTTP on 127.0.0.1 and a random port, no API key required.
 *
 *   POST /v1/chat/completions  text: "Echo: <last user message>" in `chunks`
 *                              pieces `chunkDelayMs` apart (stream or not);
 *                              response_format json_schema: a sample of the schema
 *   POST /v1/embeddings        deterministic 64-dimension vectors
 *   GET  /v1/models            the models asked for so far
 *
 * With `stampChunks`, every streamed text chunk carries `⟦t=<epoch ms>⟧`,
 * the wall-clock time it was written (performance.timeOrigin + now()).
 * Every chunk is written at once on a TCP_NODELAY socket. With `apiKey`, a
 * request with another key (or none) gets 401 as llama.cpp answers it.
 */
export interface FakeOpenAIOptions {
  chunkDelayMs?: number;
  /** Streamed text chunks per answer (default 8); short answers are padded with words to reach it. */
  chunks?: number;
  stampChunks?: boolean;
  /**
   * Require this key (as llama.cpp's `--api-key` does): any request without
   * `Authorization: Bearer <apiKey>` gets llama.cpp's 401 body.
   */
  apiKey?: string;
}

export interface FakeOpenAI {
  /** Base URL without the /v1 suffix, e.g. http://127.0.0.1:43123 */
  url: string;
  /** While set, chat completions answer this HTTP error (OpenAI's error body and headers) instead of an answer. */
  failing: number | null;
  requests: { path: string; headers: Record<string, string>; body: any }[];
  close(): Promise<void>;
}

const PADDING = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor".split(" ");
const stamp = () => `⟦t=${(performance.timeOrigin + performance.now()).toFixed(3)}⟧`;

/** Exactly `n` non-empty pieces that join back to `text` (padded with words when it has fewer than `n`). */
export function splitExactly(text: string, n: number): string[] {
  const words: string[] = [...(text.match(/\s*\S+\s*/g) ?? [])];
  for (let i = 0; words.length < n; i++) words.push(`${words.length > 0 ? " " : ""}${PADDING[i % PADDING.length]}`);
  const out: string[] = [];
  for (let i = 0, at = 0; i < n; i++) {
    const size = Math.floor(words.length / n) + (i < words.length % n ? 1 : 0);
    out.push(words.slice(at, at + size).join(""));
    at += size;
  }
  return out;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const delay = options.chunkDelayMs ?? 0;
  const pieces = Math.max(1, options.chunks ?? 8);
  const requests: FakeOpenAI["requests"] = [];
  const models = new Set<string>();

  async function chat(body: any, res: http.ServerResponse) {
    const ctx = openaiChatContext(body);
    const model = String(body?.model ?? "fake-model");
    models.add(model);
    const structured = ctx.schema !== null;
    const text = structured ? JSON.stringify(sampleFromSchema(ctx.schema!)) : `Echo: ${ctx.lastUser}`;
    const chunks = structured ? splitText(text, pieces) : splitExactly(text, pieces);
    const usage = { input: tokens(ctx.promptChars), output: tokens(chunks.join("").length) };
    if (body?.stream !== true) {
      return sendJson(res, 200, openaiCompletion({ model, content: chunks.join(""), finishReason: "stop", usage }));
    }
    const s = openaiStream(body);
    res.socket?.setNoDelay(true);
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
    let closed = false;
    res.on("close", () => (closed = true));
    res.write(s.start());
    for (let i = 0; i < chunks.length; i++) {
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      if (closed) return;
      const piece = options.stampChunks && !structured ? chunks[i]! + stamp() : chunks[i]!;
      res.write(s.content(piece));
    }
    if (closed) return;
    for (const event of s.end("stop", usage)) res.write(event);
    res.end();
  }

  const fake: FakeOpenAI = {
    url: "",
    failing: null,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    try {
      const raw = req.method === "POST" ? await readBody(req) : "";
      let body: any = null;
      if (raw) {
        try {
          body = JSON.parse(raw);
        } catch {
          return sendJson(res, 400, openaiError(400, "We could not parse the JSON body of your request.").body);
        }
      }
      requests.push({ path, headers, body });
      if (options.apiKey !== undefined && headers.authorization !== `Bearer ${options.apiKey}`) {
        return sendJson(res, 401, { error: { code: 401, message: "Invalid API Key", type: "authentication_error" } });
      }
      if (req.method === "POST" && path === "/v1/chat/completions" && fake.failing !== null) {
        const failure = openaiError(fake.failing);
        res.writeHead(fake.failing, failure.headers);
        return res.end(JSON.stringify(failure.body));
      }
      if (req.method === "POST" && path === "/v1/chat/completions") return await chat(body, res);
      if (req.method === "POST" && path === "/v1/embeddings") return sendJson(res, 200, openaiEmbeddings(body, 64));
      if (req.method === "GET" && path === "/v1/models") {
        const data = [...new Set(["fake-model", ...models])].map((id) => ({ id, object: "model", created: 1700000000, owned_by: "library" }));
        return sendJson(res, 200, { object: "list", data });
      }
      return sendJson(res, 404, openaiError(404, `Unknown request URL: ${req.method} ${path}`).body);
    } catch (error) {
      if (!res.headersSent) sendJson(res, 500, openaiError(500, String(error)).body);
      else res.destroy();
    }
  });
  server.keepAliveTimeout = 30_000;
  server.maxRequestsPerSocket = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  return fake;
}
