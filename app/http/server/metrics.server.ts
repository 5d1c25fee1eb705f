import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";
import { logger } from "../../utils/log.server";
import { RequestStats } from "./request-stats.server";

/**
 * Prometheus metrics (prom-client), served at GET /metrics behind
 * `Authorization: Bearer METRICS_TOKEN`. Route labels are route patterns
 * (`/api/projects/{projectId}`) or `page` / `static` / `api_other`, never raw
 * paths, so the number of series stays bounded.
 */

export interface QueueStats {
  queued: number;
  lagSeconds: number;
}

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const state = {
    registry,
    queueStats: undefined as (() => Promise<QueueStats>) | undefined,
    requests: new RequestStats(),
    aiTokens: new Counter({
      name: "ai_tokens_total",
      help: "AI tokens used through this process, by provider and direction (input/output)",
      labelNames: ["provider", "direction"] as const,
      registers: [registry],
    }),
    sseOpen: new Gauge({ name: "sse_streams_open", help: "Server-sent event streams open now", registers: [registry] }),
  };
  for (const metric of state.requests.metrics()) registry.registerMetric(metric as unknown as Parameters<Registry["registerMetric"]>[0]);
  // Collected on scrape from the jobs table, through the reader the app registers (app/ops/queue-stats.server.ts).
  let pending: Promise<QueueStats | null> | null = null;
  const read = () =>
    (pending ??= (async () => {
      try {
        return state.queueStats ? await state.queueStats() : null;
      } catch (error) {
        logger.warn("metrics: job queue not readable", { error });
        return null;
      } finally {
        setImmediate(() => (pending = null));
      }
    })());
  new Gauge({
    name: "jobs_queue_depth",
    help: "Queued jobs that are due now",
    registers: [registry],
    async collect() {
      const stats = await read();
      if (stats) this.set(stats.queued);
    },
  });
  new Gauge({
    name: "jobs_queue_lag_seconds",
    help: "How long the oldest due job has waited past its run time",
    registers: [registry],
    async collect() {
      const stats = await read();
      if (stats) this.set(stats.lagSeconds);
    },
  });
  return state;
}

const metrics = createMetrics();
export const registry = metrics.registry;

/** Where the queue gauges read from (the app registers it; this module stays free of the database). */
export function registerQueueStats(fn: () => Promise<QueueStats>) {
  metrics.queueStats = fn;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Records one answered request. */
export function observeRequest(method: string, route: string, status: number, seconds: number) {
  const m = METHODS.has(method) ? method : "OTHER";
  metrics.requests.observe(m, route, status, seconds);
}

export function countAiTokens(provider: string, input: number, output: number) {
  if (input > 0) metrics.aiTokens.inc({ provider, direction: "input" }, input);
  if (output > 0) metrics.aiTokens.inc({ provider, direction: "output" }, output);
}

export const sseStreamOpened = () => metrics.sseOpen.inc();
export const sseStreamClosed = () => metrics.sseOpen.dec();

function tokenMatches(header: string | undefined, token: string) {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!match) return false;
  const given = crypto.createHash("sha256").update(match[1]!.trim()).digest();
  const wanted = crypto.createHash("sha256").update(token).digest();
  return crypto.timingSafeEqual(given, wanted);
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...extra });
  res.end(text);
}

/** Answers GET /metrics: 404 when no token is configured, 401 without the right one. */
export async function serveMetrics(req: IncomingMessage, res: ServerResponse, token: string | undefined) {
  if (!token) return sendJson(res, 404, { error: "Metrics are not enabled on this server (set METRICS_TOKEN)", code: "NOT_FOUND" });
  if (req.method !== "GET" && req.method !== "HEAD") {
    return sendJson(res, 405, { error: `${req.method} is not supported here; use GET`, code: "METHOD_NOT_ALLOWED" }, { Allow: "GET" });
  }
  if (!tokenMatches(req.headers.authorization, token)) {
    return sendJson(res, 401, { error: "A valid metrics token is required", code: "UNAUTHORIZED" }, { "WWW-Authenticate": 'Bearer realm="metrics"' });
  }
  const text = await registry.metrics();
  res.writeHead(200, { "Content-Type": registry.contentType, "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : text);
}
