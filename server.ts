import http from "node:http";
import path from "node:path";
import { format } from "node:util";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { ConfigError, parseConfig } from "./app/config.server";
import { createApiRouter } from "./app/http/api-router.server";
import { createNodeHandler } from "./app/http/serve.server";
import { withStorageFullPages } from "./app/ops/storage-errors.server";
import { logger } from "./app/utils/log.server";

/**
 * The HTTP server: static assets, the Remix handler, the job worker (on the
 * LiteFS primary only) and graceful shutdown. `NODE_ENV=production` serves
 * ./build; otherwise Vite runs in middleware mode for development.
 * Logs are JSON lines on stdout (app/utils/log.server.ts); console output of
 * any code is routed through the logger so it carries the request id too.
 */

for (const [method, level] of [["log", "info"], ["info", "info"], ["warn", "warn"], ["error", "error"]] as const) {
  console[method] = (...args: unknown[]) => logger[level](format(...args));
}

let cfg;
try {
  cfg = parseConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    logger.error(error.message);
    process.exit(1);
  }
  throw error;
}

const production = cfg.NODE_ENV === "production";
if (production && !cfg.APP_URL) {
  // Links in mail are never built from a request's Host header (docs/security.md): without APP_URL they point here.
  logger.warn(`APP_URL is not set: links in e-mail and OAuth redirects use http://localhost:${cfg.PORT}. Set APP_URL to the public address.`);
}
const app = express();
app.disable("x-powered-by");
if (cfg.TRUST_PROXY) app.set("trust proxy", true);

type Entry = { startBackground(o?: { worker?: boolean }): Promise<void>; stopBackground(): Promise<void> };

// In production the build is a fixed object (a function would make Remix
// rebuild its route tables on every request); in dev Vite reloads it.
let getBuild: () => Promise<ServerBuild>;
let fixedBuild: ServerBuild | undefined;
let viteClose: (() => Promise<void>) | undefined;

if (production) {
  const buildPath = path.resolve("build/server/index.js");
  fixedBuild = withStorageFullPages((await import(buildPath)) as ServerBuild);
  const build = fixedBuild;
  getBuild = async () => build;
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  const publicFiles = express.static("build/client", { maxAge: "1h" });
  // API requests never hit the disk for static files.
  app.use((req, res, next) => (req.path.startsWith("/api/") ? next() : publicFiles(req, res, next)));
} else {
  const vite = await import("vite");
  const server = await vite.createServer({ server: { middlewareMode: true } });
  viteClose = () => server.close();
  app.use(server.middlewares);
  getBuild = async () => withStorageFullPages((await server.ssrLoadModule("virtual:remix/server-build")) as ServerBuild);
}

const entry = (await getBuild()).entry.module as unknown as Entry;
await entry.startBackground();

app.all(
  "*",
  createRequestHandler({
    build: fixedBuild ?? getBuild,
    mode: production ? "production" : "development",
    getLoadContext: (req) => ({ ip: req.ip ?? req.socket.remoteAddress ?? null }),
  }),
);

// The API is answered from a route table built once (app/http/api-router.server.ts),
// without express or Remix's per-request route matching; the pages go through both.
// app/http/serve.server.ts adds the request id, /metrics, the access log and metrics.
const server = http.createServer(
  createNodeHandler({
    api: fixedBuild ? createApiRouter(fixedBuild) : null,
    app,
    trustProxy: cfg.TRUST_PROXY,
    metricsToken: cfg.METRICS_TOKEN,
  }),
);
server.keepAliveTimeout = 65_000;
server.listen(cfg.PORT, cfg.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : cfg.PORT;
  logger.info(`PRD Studio listening on http://${cfg.HOST === "0.0.0.0" ? "localhost" : cfg.HOST}:${port}`, { port });
});

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info(`${signal} received: draining connections`, { signal });
  // Stop accepting; idle keep-alive sockets close now, busy ones when done.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), 10_000);
  await closed;
  clearTimeout(force);
  await entry.stopBackground();
  await viteClose?.();
  logger.info("Shut down cleanly");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
