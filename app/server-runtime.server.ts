import type { IncomingMessage, ServerResponse } from "node:http";
import { format } from "node:util";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { type Config, ConfigError, parseConfig } from "./config.server";
import { createApiRouter } from "./http/api/api-router.server";
import { createNodeHandler } from "./http/server/serve.server";
import { withStorageFullPages } from "./ops/storage-errors.server";
import { logger } from "./utils/log.server";

/**
 * Everything server.ts needs from the app, reached through the build's entry
 * module (app/entry.server.tsx exports it as `runtime`). server.ts imports no
 * app module itself, so the process holds one copy of each (one logger, one
 * metrics registry, one request counter), and development (Vite) and
 * production (./build) answer every request through the same handler:
 * /metrics, /api from the route table, the pages through express + Remix.
 */

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Console output of any code goes through the logger, so it carries the request id too. */
export function routeConsoleToLogger() {
  for (const [method, level] of [
    ["log", "info"],
    ["info", "info"],
    ["warn", "warn"],
    ["error", "error"],
  ] as const) {
    console[method] = (...args: unknown[]) => logger[level](format(...args));
  }
}

/** The configuration from the environment; a bad value is logged and the process exits 1. */
export function configOrExit(env: NodeJS.ProcessEnv): Config {
  try {
    return parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

export interface HandlerOptions {
  /** The raw build: ./build/server/index.js, or Vite's `virtual:remix/server-build` in development. */
  build: ServerBuild;
  trustProxy: boolean;
  metricsToken: string | undefined;
  /** Production's static files: build/client (fingerprinted /assets cached for a year). */
  staticDir?: string;
  /** Development: Vite's middlewares (its client, HMR, source modules) before the pages. */
  before?: express.RequestHandler;
  /** Remix's mode: development shows errors in full. */
  mode?: "production" | "development";
}

/**
 * The request handler server.ts (and tests/support/serve.ts) runs: the build
 * guarded against a full disk, /api answered from its route table, the rest
 * by express (static files) and Remix.
 */
export function createAppHandler(options: HandlerOptions): NodeHandler {
  const build = withStorageFullPages(options.build);
  const app = express();
  app.disable("x-powered-by");
  if (options.trustProxy) app.set("trust proxy", true);
  if (options.before) app.use(options.before);
  if (options.staticDir) {
    app.use("/assets", express.static(`${options.staticDir}/assets`, { immutable: true, maxAge: "1y" }));
    const publicFiles = express.static(options.staticDir, { maxAge: "1h" });
    // API requests never hit the disk for static files.
    app.use((req, res, next) => (req.path.startsWith("/api/") ? next() : publicFiles(req, res, next)));
  }
  app.all(
    "*",
    createRequestHandler({
      build,
      mode: options.mode ?? "production",
      getLoadContext: (req) => ({ ip: req.ip ?? req.socket.remoteAddress ?? null }),
    }),
  );
  return createNodeHandler({ api: createApiRouter(build), app, trustProxy: options.trustProxy, metricsToken: options.metricsToken });
}

export { logger };
export { startBackground, stopBackground } from "./lifecycle.server";
export { stopLive } from "./domain/live/live.server";
export { answerClientErrors } from "./http/server/client-errors.server";
