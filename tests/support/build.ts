import path from "node:path";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { GetRequest } from "~/http/server/get-request.server";
import { createApiRouter } from "~/http/api/api-router.server";
import { withStorageFullPages } from "~/ops/storage-errors.server";
// Remix's own flat-routes resolver: the same file -> path rules as the real build.
import { flatRoutes } from "@remix-run/dev/dist/config/flat-routes.js";
import * as entry from "~/entry.server";
import * as root from "~/root";

const modules = import.meta.glob("/app/routes/*.{ts,tsx}", { eager: true }) as Record<string, Record<string, unknown>>;

/** A ServerBuild assembled from source, guarded as server.ts guards it, so tests run the real Remix handler in-process. */
export function sourceBuild(): ServerBuild {
  return withStorageFullPages(assembledBuild());
}

/** The same build before server.ts's guards (tests that swap a route's code, then guard it themselves). */
export function assembledBuild(): ServerBuild {
  const appDir = path.resolve("app");
  const manifest = flatRoutes(appDir, ["**/*.test.*"]) as Record<
    string,
    { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean; file: string }
  >;
  const routes: ServerBuild["routes"] = {
    root: { id: "root", path: "", module: root as never },
  };
  const assetRoutes: Record<string, unknown> = {
    root: {
      id: "root",
      path: "",
      module: "/root.js",
      imports: [],
      hasAction: false,
      hasLoader: false,
      hasClientAction: false,
      hasClientLoader: false,
      hasErrorBoundary: true,
    },
  };
  for (const r of Object.values(manifest)) {
    const mod = modules[`/app/${r.file}`];
    if (!mod) throw new Error(`Route module not found for ${r.file}`);
    routes[r.id] = {
      id: r.id,
      parentId: r.parentId ?? "root",
      path: r.path,
      index: r.index,
      caseSensitive: r.caseSensitive,
      module: mod as never,
    };
    assetRoutes[r.id] = {
      id: r.id,
      parentId: r.parentId ?? "root",
      path: r.path,
      index: r.index,
      caseSensitive: r.caseSensitive,
      module: `/${r.id}.js`,
      imports: [],
      hasAction: "action" in mod,
      hasLoader: "loader" in mod,
      hasClientAction: false,
      hasClientLoader: false,
      hasErrorBoundary: "ErrorBoundary" in mod,
    };
  }
  return {
    mode: "production",
    entry: { module: entry as never },
    routes,
    assets: { version: "test", url: "/manifest.js", entry: { module: "/entry.client.js", imports: [] }, routes: assetRoutes } as never,
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    basename: "/",
    isSpaMode: false,
    future: {
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_singleFetch: true,
      v3_lazyRouteDiscovery: true,
    } as never,
  } as ServerBuild;
}

let build: ServerBuild | undefined;
let handler: ReturnType<typeof createRequestHandler> | undefined;
let api: ReturnType<typeof createApiRouter> | undefined;

/**
 * What server.ts does with a request in production: /api from the route
 * table (app/http/api/api-router.server.ts), everything else through Remix.
 */
export function remixHandler() {
  build ??= sourceBuild();
  handler ??= createRequestHandler(build, "production");
  api ??= createApiRouter(build);
  const remix = handler;
  const router = api;
  return async (request: Request, context: { ip: string | null }) => {
    // As server.ts's node adapter does: API GETs get the GetRequest stand-in, not a Fetch Request.
    const viaRouter = request.method === "GET" ? (new GetRequest(request.url, request.headers) as unknown as Request) : request;
    return (await router.handle(viaRouter, context)) ?? remix(request, context);
  };
}

/** The API route table `remixHandler` serves /api from (tests/support/contract-check.ts finds each call's route in it). */
export function apiRouter() {
  remixHandler();
  return api!;
}

/** Remix alone, as the fallback for what the API table does not serve. */
export function remixOnly() {
  build ??= sourceBuild();
  handler ??= createRequestHandler(build, "production");
  return handler;
}
