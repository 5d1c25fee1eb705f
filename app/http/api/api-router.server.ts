import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import { logger } from "~/utils/log.server";
import { requestIdOf } from "../request-id.server";
import { withBaselineHeaders } from "../server/security-headers.server";

/**
 * Serves `/api` (and `/mcp`) straight from the build's route modules, with a route table
 * built once. The modules are the same ones Remix runs (`api.*.ts`, their
 * `loader` for GET and `action` for other methods); this only replaces
 * Remix's per-request route matching (it flattens and ranks the whole route
 * tree, twice, for every request) with a segment tree matched in one walk.
 *
 * Matching follows React Router's rules for these routes: static segments
 * (case-insensitive) before `:params` before a `*` splat, trailing slashes
 * ignored, segments decoded. Anything it does not serve (HEAD, OPTIONS,
 * paths outside the table) returns null so the caller hands the request to
 * Remix.
 */

type RouteFn = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;

interface Entry {
  id: string;
  /** The route's pattern, as in the API docs (`/api/projects/{projectId}`): the metrics' route label. */
  pattern: string;
  loader?: RouteFn;
  action?: RouteFn;
}

interface Node {
  statics: Map<string, Node>;
  param?: { name: string; node: Node };
  splat?: Entry;
  entry?: Entry;
}

const node = (): Node => ({ statics: new Map() });
const SERVED = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

export interface ApiMatch {
  entry: Entry;
  params: Record<string, string>;
}

function fullPath(build: ServerBuild, id: string) {
  const parts: string[] = [];
  for (let route = build.routes[id]; route; route = route.parentId ? build.routes[route.parentId] : undefined) {
    if (route.path) parts.unshift(route.path);
  }
  return parts.join("/").replace(/^\/+|\/+$/g, "");
}

function decode(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The paths served here: `/api/**`, and `/mcp`, the agents' endpoint (docs/mcp.md), which has no page either. */
export const isRoutedPath = (pathname: string) => pathname.startsWith("/api/") || pathname === "/mcp" || pathname === "/mcp/";

export function createApiRouter(build: ServerBuild, prefixes: readonly string[] = ["api", "mcp"]) {
  const root = node();
  const served = (path: string) => prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  for (const [id, route] of Object.entries(build.routes)) {
    const path = fullPath(build, id);
    if (route.index || !served(path)) continue;
    const module = route.module as { loader?: RouteFn; action?: RouteFn };
    const pattern = `/${path.replace(/:([^/]+)/g, "{$1}")}`;
    const entry: Entry = { id, pattern, loader: module.loader, action: module.action };
    let at = root;
    const segments = path.split("/");
    for (const [i, segment] of segments.entries()) {
      if (segment === "*" && i === segments.length - 1) {
        at.splat = entry;
        break;
      }
      if (segment.startsWith(":")) {
        at.param ??= { name: segment.slice(1), node: node() };
        at = at.param.node;
      } else {
        const key = segment.toLowerCase();
        if (!at.statics.has(key)) at.statics.set(key, node());
        at = at.statics.get(key)!;
      }
      if (i === segments.length - 1) at.entry = entry;
    }
  }

  function walk(at: Node, segments: string[], i: number, params: Record<string, string>): ApiMatch | null {
    if (i === segments.length) {
      if (at.entry) return { entry: at.entry, params };
      if (at.splat) return { entry: at.splat, params: { ...params, "*": "" } };
      return null;
    }
    const segment = segments[i]!;
    const exact = at.statics.get(segment.toLowerCase());
    const found = exact && walk(exact, segments, i + 1, params);
    if (found) return found;
    if (at.param) {
      const deeper = walk(at.param.node, segments, i + 1, { ...params, [at.param.name]: segment });
      if (deeper) return deeper;
    }
    if (at.splat) return { entry: at.splat, params: { ...params, "*": segments.slice(i).join("/") } };
    return null;
  }

  /** The route module for a path and method, or null when Remix should handle it. */
  function match(pathname: string, method: string): ApiMatch | null {
    if (!SERVED.has(method)) return null;
    const segments = pathname.split("/").filter(Boolean).map(decode);
    const found = walk(root, segments, 0, {});
    if (!found) return null;
    const fn = method === "GET" ? found.entry.loader : found.entry.action;
    return fn ? found : null;
  }

  /**
   * Runs a matched route module the way Remix runs a resource route. Every
   * answer (JSON, error, SSE stream, file, redirect) leaves with the baseline
   * security headers (nosniff, Referrer-Policy, HSTS on https).
   */
  async function run(found: ApiMatch, request: Request, context: AppLoadContext): Promise<Response> {
    const fn = (request.method === "GET" ? found.entry.loader : found.entry.action)!;
    let response: Response;
    try {
      const result = await fn({ request, params: found.params, context });
      response = result instanceof Response ? result : Response.json(result ?? null);
    } catch (error) {
      if (error instanceof Response) response = error;
      else {
        logger.error(`[api] ${found.entry.id} failed`, { requestId: requestIdOf(request), error });
        response = Response.json({ error: "Something went wrong on our side", code: "INTERNAL_ERROR" }, { status: 500, headers: { "API-Version": "1" } });
      }
    }
    return withBaselineHeaders(response);
  }

  /** The API's answer to a request, or null when Remix should answer it. */
  async function handle(request: Request, context: AppLoadContext): Promise<Response | null> {
    const found = match(new URL(request.url).pathname, request.method);
    return found ? run(found, request, context) : null;
  }

  return { match, run, handle };
}
export type ApiRouter = ReturnType<typeof createApiRouter>;
