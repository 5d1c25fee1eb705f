import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";
import { GetRequest } from "./get-request.server";
import { JSON_TEXT } from "../api/respond.server";

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

  const raw = req.rawHeaders;
  if (req.method === "GET") {
    const headers = new Headers();
    for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    // Reads are the hot path: a stand-in that makes the real Request only if a route needs more than url and headers.
    return new GetRequest(url, headers) as unknown as Request;
  }
  // Pairs, not a Headers: the Request copies whatever it is given into its own.
  const headers: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) headers.push([raw[i]!, raw[i + 1]!]);

  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers };
  if (req.method !== "HEAD") {
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
export async function sendResponse(res: ServerResponse, response: Response, requestId?: string) {
  // One array for writeHead: node checks each header once, and Set-Cookie stays one line per cookie.
  const head: string[] = requestId ? ["X-Request-Id", requestId] : [];
  // Content-Length is added once below (computed for JSON, as declared otherwise): twice would break strict clients.
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie" && key !== "content-length" && key !== "x-request-id") head.push(key, value);
  });
  for (const cookie of response.headers.getSetCookie()) head.push("Set-Cookie", cookie);
  const text = (response as Response & { [JSON_TEXT]?: string })[JSON_TEXT];
  if (typeof text === "string") {
    // Made by jsonResponse and not read yet: the text is the body; write it without making a stream.
    head.push("Content-Length", String(Buffer.byteLength(text)));
    res.writeHead(response.status, response.statusText || undefined, head);
    return void res.end(text);
  }
  const type = response.headers.get("Content-Type") ?? "";
  if (response.body && type.startsWith("application/json")) {
    const body = Buffer.from(await response.arrayBuffer());
    head.push("Content-Length", String(body.length));
    res.writeHead(response.status, response.statusText || undefined, head);
    return void res.end(body);
  }
  const declared = response.headers.get("Content-Length");
  if (declared !== null) head.push("Content-Length", declared);
  res.writeHead(response.status, response.statusText || undefined, head);
  if (!response.body) return void res.end();
  if (/text\/event-stream/i.test(type)) {
    res.flushHeaders();
    return writeEventStream(response.body, res);
  }
  await writeReadableStreamToWritable(response.body, res);
}

/**
 * An SSE body, written as it comes with the socket's backpressure (a client
 * that does not read holds the stream back instead of growing the server's
 * buffer), and cancelled when the client goes away, also for GET streams,
 * whose requests carry no abort signal (toRequest): the producer stops and
 * its subscriptions end.
 */
async function writeEventStream(body: ReadableStream<Uint8Array>, res: ServerResponse) {
  const reader = body.getReader();
  const gone = () => void reader.cancel().catch(() => {});
  res.once("close", gone);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (res.destroyed) continue;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off("drain", go);
            res.off("close", go);
            resolve();
          };
          res.on("drain", go);
          res.on("close", go);
        });
      }
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
  } finally {
    res.off("close", gone);
  }
}
