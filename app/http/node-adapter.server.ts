import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";

const JSON_TEXT = Symbol.for("prd-studio.json-text");

/**
 * node:http ⇄ Fetch API for the requests server.ts answers without express
 * (the API). It mirrors @remix-run/express's createRemixRequest and
 * sendRemixResponse, with express's `trust proxy` rules for the URL and the
 * client address, so a route sees the same Request either way.
 */

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.split(",")[0]?.trim() || undefined;

function portOf(host: string | undefined) {
  const port = Number.parseInt(host?.split(":")[1] ?? "", 10);
  return Number.isSafeInteger(port) ? port : null;
}

/** The client's address, as express computes `req.ip` (leftmost X-Forwarded-For when the proxy is trusted). */
export function clientIp(req: IncomingMessage, trustProxy: boolean) {
  const forwarded = trustProxy ? first(req.headers["x-forwarded-for"]) : undefined;
  return forwarded ?? req.socket.remoteAddress ?? null;
}

export function toRequest(req: IncomingMessage, res: ServerResponse, trustProxy: boolean): Request {
  const encrypted = Boolean((req.socket as TLSSocket).encrypted);
  const protocol = (trustProxy && first(req.headers["x-forwarded-proto"])) || (encrypted ? "https" : "http");
  const forwardedHost = first(req.headers["x-forwarded-host"]);
  const hostHeader = req.headers.host;
  const hostname = ((trustProxy && forwardedHost) || hostHeader || "localhost").replace(/:\d+$/, "");
  const port = portOf(forwardedHost) ?? portOf(hostHeader);
  const url = `${protocol}://${hostname}${port ? `:${port}` : ""}${req.url ?? "/"}`;

  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);

  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
    // Abort the handler when the response can no longer be written (the client went away), not after it
    // finished: AI streams and uploads stop. API reads (GET) are short and not worth an AbortSignal each
    // (two per request on Node 20, among the costliest objects of a read).
    let controller: AbortController | null = new AbortController();
    init.signal = controller.signal;
    res.on("finish", () => (controller = null));
    res.on("close", () => controller?.abort());
  }
  return new Request(url, init);
}

/** Writes a Response: JSON in one write with its length, anything else streamed as it comes (SSE flushed at once). */
export async function sendResponse(res: ServerResponse, response: Response) {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") res.setHeader(key, value);
  });
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  const type = response.headers.get("Content-Type") ?? "";
  if (!response.body) return void res.end();
  const text = (response as Response & { [JSON_TEXT]?: string })[JSON_TEXT];
  if (typeof text === "string" && !response.bodyUsed) {
    // Made by jsonResponse: the text is the body; write it without reading the stream back.
    res.setHeader("Content-Length", Buffer.byteLength(text));
    return void res.end(text);
  }
  if (type.startsWith("application/json")) {
    const body = Buffer.from(await response.arrayBuffer());
    res.setHeader("Content-Length", body.length);
    return void res.end(body);
  }
  if (/text\/event-stream/i.test(type)) res.flushHeaders();
  await writeReadableStreamToWritable(response.body, res);
}
