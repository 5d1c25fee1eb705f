import http from "node:http";
import type { AddressInfo } from "node:net";
import { answerClientErrors, createAppHandler } from "~/server-runtime.server";
import { assembledBuild } from "./build";

/** The app behind the same handler server.ts runs (app/server-runtime.server.ts), on a real loopback socket. */
export function serveApp(options: { metricsToken?: string; staticFiles?: boolean } = {}) {
  const handler = createAppHandler({
    build: assembledBuild(),
    trustProxy: false,
    metricsToken: options.metricsToken,
    staticDir: options.staticFiles ? "public" : undefined,
  });
  const server = http.createServer(handler);
  answerClientErrors(server);
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
