import http from "node:http";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import type * as Runtime from "./app/server-runtime.server";

/**
 * The HTTP server: loads the build (./build in production, Vite's in
 * development), then everything else comes from the build's entry module
 * (app/server-runtime.server.ts): the configuration, the logger, the request
 * handler and the background work (migrations, job worker, scheduler; on the
 * LiteFS primary only). This file imports no app module, so there is one copy
 * of each in the process, and both modes answer requests through the same
 * handler: /metrics, /api from its route table, pages through Remix.
 * Logs are JSON lines on stdout (app/utils/log.server.ts).
 */

const production = process.env.NODE_ENV === "production";
const runtimeOf = (build: ServerBuild) => (build.entry.module as unknown as { runtime: typeof Runtime }).runtime;

let handler: http.RequestListener;
let runtime: typeof Runtime;
let cfg: ReturnType<typeof Runtime.configOrExit>;
let viteClose: (() => Promise<void>) | undefined;

if (production) {
  const build = (await import(path.resolve("build/server/index.js"))) as ServerBuild;
  runtime = runtimeOf(build);
  runtime.routeConsoleToLogger();
  cfg = runtime.configOrExit(process.env);
  handler = runtime.createAppHandler({ build, trustProxy: cfg.TRUST_PROXY, metricsToken: cfg.METRICS_TOKEN, staticDir: "build/client" });
} else {
  const vite = await import("vite");
  const dev = await vite.createServer({ server: { middlewareMode: true } });
  viteClose = () => dev.close();
  const load = async () => (await dev.ssrLoadModule("virtual:remix/server-build")) as ServerBuild;
  runtime = runtimeOf(await load());
  runtime.routeConsoleToLogger();
  cfg = runtime.configOrExit(process.env);
  // Vite hands back the same build until a source file changes; a changed build gets a fresh handler.
  const handlers = new WeakMap<ServerBuild, http.RequestListener>();
  const current = async () => {
    const build = await load();
    let h = handlers.get(build);
    if (!h) {
      const { TRUST_PROXY, METRICS_TOKEN } = cfg;
      h = runtimeOf(build).createAppHandler({ build, trustProxy: TRUST_PROXY, metricsToken: METRICS_TOKEN, before: dev.middlewares, mode: "development" });
      handlers.set(build, h);
    }
    return h;
  };
  handler = (req, res) =>
    void current().then(
      (h) => h(req, res),
      (error) => {
        dev.ssrFixStacktrace(error as Error);
        runtime.logger.error("the development build failed to load", { error });
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end(String((error as Error).stack ?? error));
      },
    );
}

if (production && !cfg.APP_URL) {
  // Links in mail are never built from a request's Host header (docs/security.md): without APP_URL they point here.
  runtime.logger.warn(
    `APP_URL is not set: links in e-mail and OAuth redirects use http://localhost:${cfg.PORT}, the same-origin check trusts each request's own Host header, and /mcp refuses every browser (Origin) request. Set APP_URL to the public address.`,
  );
}
await runtime.startBackground();

const server = http.createServer(handler);
server.keepAliveTimeout = 65_000;
// Node's own 400/408/431 answers get the {error, code} envelope (app/http/server/client-errors.server.ts).
runtime.answerClientErrors(server);
server.listen(cfg.PORT, cfg.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : cfg.PORT;
  runtime.logger.info(`PRD Studio listening on http://${cfg.HOST === "0.0.0.0" ? "localhost" : cfg.HOST}:${port}`, { port });
});

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  runtime.logger.info(`${signal} received: draining connections`, { signal });
  // Stop accepting; idle keep-alive sockets close now, busy ones when done.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Live PRD streams never end by themselves: save their unsaved edits as versions, then end them.
  await runtime.stopLive();
  const force = setTimeout(() => server.closeAllConnections(), 10_000);
  await closed;
  clearTimeout(force);
  await runtime.stopBackground();
  await viteClose?.();
  runtime.logger.info("Shut down cleanly");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
