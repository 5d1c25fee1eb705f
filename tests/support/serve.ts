import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequestHandler } from "@remix-run/express";
import express from "express";
import { createApiRouter } from "~/http/api-router.server";
import { createNodeHandler } from "~/http/serve.server";
import { sourceBuild } from "./build";

/** The app behind the same node handler server.ts runs, on a real loopback socket. */
export function serveApp(options: { metricsToken?: string; staticFiles?: boolean } = {}) {
  const build = sourceBuild();
  const app = express();
  if (options.staticFiles) app.use(express.static("public"));
  app.all("*", createRequestHandler({ build, mode: "production", getLoadContext: (req) => ({ ip: req.ip ?? null }) }));
  const server = http.createServer(createNodeHandler({ api: createApiRouter(build), app, trustProxy: false, metricsToken: options.metricsToken }));
  return new Promise<{ server: http.Server; url: string; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}
