import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A real HTTP receiver on 127.0.0.1 that records what webhooks send. */

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { event: string; timestamp: string; data: Record<string, any> };
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Status to answer for the n-th request (0-based); default 200. */
  respond: (n: number, req: Received) => number;
  close: () => Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Partial<Receiver> & { received: Received[] } = { received: [], respond: () => 200 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const entry: Received = { headers: req.headers, raw, body: JSON.parse(raw) };
      const status = receiver.respond!(receiver.received.length, entry);
      receiver.received.push(entry);
      res.writeHead(status, { "Content-Type": "text/plain" });
      res.end(status >= 400 ? "receiver error" : "ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as Receiver;
}

/** What a receiver does: hex HMAC-SHA256 of the raw body, compared in constant time. */
export function verifySignature(secret: string, raw: string, signature: string | string[] | undefined) {
  if (typeof signature !== "string") return false;
  const expected = Buffer.from(crypto.createHmac("sha256", secret).update(raw).digest("hex"));
  const given = Buffer.from(signature);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
