import net from "node:net";

/**
 * HTTP/1.1 spoken by hand over a loopback socket, for tests that attack the
 * server the way no well-behaved client does: bodies that never end, a
 * Content-Length that lies, headers over node's limit, a keep-alive
 * connection reused after a refusal.
 */

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes of the request body written before the answer was complete, and in all. */
  sentBeforeAnswer: number;
  sent: number;
  /** The server closed the connection (FIN or reset) after the answer. */
  closed: boolean;
  /** A socket error (ECONNRESET, EPIPE) before the whole answer had arrived. */
  errorBeforeAnswer: string | null;
  /** What arrived after the first answer (a second answer on a reused connection). */
  rest: string;
}

export interface RawBody {
  /** Total bytes of body to send (more than it declares, for a lying Content-Length). */
  total: number;
  /** Chunked transfer encoding (no Content-Length). */
  chunked?: boolean;
  /** The byte repeated; default "a". */
  fill?: string;
  /** Bytes before the filler (a form field name: `email=`). */
  prefix?: string;
  /** Keep sending after the answer and the server's FIN, until the server closes (an attacker does; a polite client stops). */
  ignoreAnswer?: boolean;
}

const CHUNK = 256 * 1024;

/** Parses one answer at the start of `text` (Content-Length bodies, or a chunked one), or null while it is incomplete. */
function parseAnswer(
  buffer: Buffer,
): { answer: Omit<RawAnswer, "sentBeforeAnswer" | "sent" | "closed" | "errorBeforeAnswer" | "rest">; length: number } | null {
  const end = buffer.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine, ...lines] = buffer.subarray(0, end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(statusLine!.split(" ")[1]);
  let at = end + 4;
  if (headers["transfer-encoding"] === "chunked") {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buffer.indexOf("\r\n", at);
      if (lineEnd < 0) return null;
      const size = Number.parseInt(buffer.subarray(at, lineEnd).toString("latin1"), 16);
      if (buffer.length < lineEnd + 2 + size + 2) return null;
      parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
      if (size === 0) break;
    }
    return { answer: { status, headers, body: Buffer.concat(parts).toString("utf8") }, length: at };
  }
  const length = Number(headers["content-length"] ?? 0);
  if (buffer.length < at + length) return null;
  return { answer: { status, headers, body: buffer.subarray(at, at + length).toString("utf8") }, length: at + length };
}

/**
 * Writes `head` (the request line and headers, without the blank line; one that
 * ends with CRLF is written as it is, its headers left unfinished), then
 * `body` as fast as the socket takes it, then `after` (a pipelined request);
 * resolves once the server has answered and either closed the connection or
 * stayed silent for `quietMs` after the answer (and after `after`'s answer).
 */
export function rawExchange(port: number, head: string, body?: RawBody, after?: string, quietMs = 1500): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // Half-open allowed: the server's FIN does not end what this side sends.
    const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    let received = Buffer.alloc(0);
    let first: ReturnType<typeof parseAnswer> = null;
    let sent = 0;
    let sentBeforeAnswer = 0;
    let errorBeforeAnswer: string | null = null;
    let settled = false;
    let quiet: NodeJS.Timeout | undefined;
    let writing = false;
    let ended = false;
    const deadline = setTimeout(() => finish(false), 60_000);

    function finish(closed: boolean) {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(quiet);
      socket.destroy();
      if (!first) return reject(new Error(`no answer (${errorBeforeAnswer ?? (closed ? "closed" : "timed out")}); got ${received.length} bytes`));
      const rest = received.subarray(first.length).toString("utf8");
      resolve({ ...first.answer, sentBeforeAnswer, sent, closed, errorBeforeAnswer, rest });
    }
    const waitQuietly = () => {
      clearTimeout(quiet);
      if (writing) return;
      quiet = setTimeout(() => finish(false), quietMs);
    };

    socket.on("data", (data) => {
      received = Buffer.concat([received, data]);
      if (!first) {
        first = parseAnswer(received);
        if (first) sentBeforeAnswer = sent;
      }
      if (first) waitQuietly();
    });
    // An attacker keeps sending after the server's FIN; the exchange ends when the server closes for good.
    socket.on("end", () => {
      ended = true;
      if (!writing) finish(true);
    });
    socket.on("close", () => finish(true));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (!first) errorBeforeAnswer = error.code ?? error.message;
    });

    socket.once("connect", async () => {
      socket.write(head.endsWith("\r\n") ? head : `${head}\r\n\r\n`);
      if (body) {
        writing = body.ignoreAnswer === true;
        const filler = Buffer.alloc(CHUNK, body.fill ?? "a");
        let left = body.total;
        if (body.prefix) {
          socket.write(body.chunked ? `${Buffer.byteLength(body.prefix).toString(16)}\r\n${body.prefix}\r\n` : body.prefix);
          left -= Buffer.byteLength(body.prefix);
        }
        while (left > 0 && !socket.destroyed && (body.ignoreAnswer || !first)) {
          const piece = left >= CHUNK ? filler : filler.subarray(0, left);
          if (body.chunked) socket.write(`${piece.length.toString(16)}\r\n`);
          let ok = socket.write(piece);
          if (body.chunked) ok = socket.write("\r\n");
          left -= piece.length;
          sent += piece.length;
          if (!ok) await new Promise<void>((go) => (socket.once("drain", go), socket.once("close", go)));
        }
        if (left === 0 && body.chunked && !socket.destroyed) socket.write("0\r\n\r\n");
        writing = false;
        if (ended) finish(true);
        else if (first) waitQuietly();
      }
      if (after && !socket.destroyed) socket.write(after);
    });
  });
}

/** Request line and headers, joined for rawExchange. */
export const requestHead = (method: string, path: string, headers: Record<string, string | number>) =>
  [`${method} ${path} HTTP/1.1`, "Host: localhost:3000", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join("\r\n");

/** The highest RSS while `work` runs, above where it started, in MB. */
export async function rssGrowthMb<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - before) / (1024 * 1024) };
  } finally {
    clearInterval(sample);
  }
}
