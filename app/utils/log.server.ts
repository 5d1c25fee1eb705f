import fs from "node:fs";

/**
 * A JSON-lines logger on stdout: one object per line with `level`, `time`,
 * `msg` and the fields given. Code running for a request passes its
 * `requestId` (from the actor, the request metadata or `requestIdOf(request)`,
 * app/http/request-id.server.ts) so the line names the request; lines from
 * the scheduler, the worker and start-up have none. The level comes from
 * LOG_LEVEL (default `info`).
 */

export type LogLevel = "debug" | "info" | "warn" | "error";
const RANK = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

type Sink = (line: string) => void;

/**
 * Lines are gathered and written once per turn of the event loop (or at 64 KB):
 * one write instead of one per request keeps the access log off the hot path.
 * Whatever is pending when the process exits is written synchronously.
 */
let pending: string[] = [];
let pendingBytes = 0;
let scheduled = false;
function flush() {
  scheduled = false;
  if (!pending.length) return;
  const chunk = pending.join("");
  pending = [];
  pendingBytes = 0;
  process.stdout.write(chunk);
}
function flushSync() {
  if (!pending.length) return;
  const chunk = pending.join("");
  pending = [];
  pendingBytes = 0;
  try {
    fs.writeSync(1, chunk);
  } catch {
    /* stdout closed */
  }
}
const stdout: Sink = (line) => {
  pending.push(line + "\n");
  pendingBytes += line.length + 1;
  if (pendingBytes >= 65_536) flush();
  else if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
};
process.once("exit", flushSync);

const state: { sink: Sink; threshold: number | undefined } = { sink: stdout, threshold: undefined };

function minimum() {
  if (state.threshold === undefined) {
    const level = (process.env.LOG_LEVEL ?? "").trim() as keyof typeof RANK;
    state.threshold = RANK[level] ?? RANK.info;
  }
  return state.threshold;
}

/** Sends log lines to `fn` instead of stdout (tests); call with no argument to restore stdout. */
export function setLogSink(fn?: Sink) {
  state.sink = fn ?? stdout;
}

/** Overrides LOG_LEVEL (tests); undefined reads it again from the environment. */
export function setLogLevel(level?: keyof typeof RANK) {
  state.threshold = level === undefined ? undefined : RANK[level];
}

function errorFields(error: unknown) {
  if (error instanceof Error) return { error: error.message, stack: error.stack };
  return { error: String(error) };
}

export function log(level: LogLevel, msg: string, fields?: Record<string, unknown>) {
  if (RANK[level] < minimum()) return;
  const line: Record<string, unknown> = { level, time: isoNow(), msg };
  if (fields) {
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      if (key === "error" || value instanceof Error) Object.assign(line, errorFields(value));
      else line[key] = value;
    }
  }
  let text: string;
  try {
    text = JSON.stringify(line);
  } catch {
    text = JSON.stringify({ level, time: line.time, msg, requestId: line.requestId, note: "fields were not serializable" });
  }
  state.sink(text);
}

/** The time as ISO text, made once per millisecond however many lines share it. */
let isoAt = 0;
let iso = "";
function isoNow() {
  const now = Date.now();
  if (now !== isoAt) {
    isoAt = now;
    iso = new Date(now).toISOString();
  }
  return iso;
}

/**
 * Paths that carry a bearer secret (an invitation, a share link, a personal
 * review link, an incoming webhook) and the segment that is the secret. Anyone holding the token has
 * its power, so the access log writes `:token` in its place. Query strings
 * (reset and verification tokens) are never logged at all.
 */
const SECRET_PATHS = /^(\/invite\/|\/share\/|\/review\/|\/api\/webhooks\/incoming\/)[^/?#]+/;

/** The path as it may be logged: bearer tokens replaced by `:token`. */
export function redactPath(path: string) {
  return SECRET_PATHS.test(path) ? path.replace(SECRET_PATHS, "$1:token") : path;
}

/**
 * The access-log line of a request, written without building an object and
 * walking its fields: it is logged once per request, so it is on the hot path.
 * Same shape as log("info", "request", {...}). The request id (checked by
 * requestIdFrom), the method (an HTTP token) and the route (a route pattern or
 * a fixed label) need no escaping; the path does.
 */
export function logRequest(r: {
  requestId: string;
  method: string;
  path: string;
  route: string;
  status: number;
  durationMs: number;
  bytes: number | undefined;
}) {
  if (RANK.info < minimum()) return;
  state.sink(
    `{"level":"info","time":"${isoNow()}","msg":"request","requestId":"${r.requestId}","method":"${r.method}","path":${JSON.stringify(redactPath(r.path))},"route":"${r.route}","status":${r.status},"durationMs":${r.durationMs}${r.bytes === undefined ? "" : `,"bytes":${r.bytes}`}}`,
  );
}

export const logger = {
  debug: (msg: string, fields?: Record<string, unknown>) => log("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => log("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => log("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => log("error", msg, fields),
};
