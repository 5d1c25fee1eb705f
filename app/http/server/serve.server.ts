import type { IncomingMessage, ServerResponse } from "node:http";
import { logger, logRequest, redactPath } from "../../utils/log.server";
import { type ApiRouter, isRoutedPath } from "../api/api-router.server";
import { observeRequest, serveMetrics } from "./metrics.server";
import { clientIp, sendResponse, toRequest } from "./node-adapter.server";
import { requestIdFrom, stampRequestId } from "../request-id.server";
import { isCrossSiteNodeRequest } from "../csrf.server";
import { baselineHeaders } from "./security-headers.server";
import { requestArrived } from "../../utils/request-epoch";
import { createTurns } from "./turns.server";
import { type BodyGuard, guardBody, sealResponse } from "./body-guard.server";
import { type Refusal, audienceOf, bodyTooLarge, rawResponse, refusalContent } from "./refusals.server";
import { tooLarge } from "../api/body.server";

/** Most of a loop turn spent starting requests before timers and I/O get theirs (app/http/server/turns.server.ts). */
const TURN_BUDGET_MS = 4;

export interface ServeOptions {
  /** The API route table (production build); null sends /api through `app` as well. */
  api: ApiRouter | null;
  /** Everything else: express with static files and the Remix handler. */
  app: (req: IncomingMessage, res: ServerResponse) => void;
  trustProxy: boolean;
  /** Bearer token of /metrics; unset disables it. */
  metricsToken: string | undefined;
}

/**
 * Adds the baseline security headers a response lacks when its head is
 * written (node calls writeHead itself for an implicit head). Headers the
 * response sets win: writeHead's own replace same-named ones, and a header
 * already set (as Remix's for pages, which express appends) is not added twice
 * — a doubled Strict-Transport-Security would be ignored by browsers.
 */
function fillBaselineHeaders(res: ServerResponse) {
  const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    for (const [name, value] of baselineHeaders()) if (!this.hasHeader(name)) this.setHeader(name, value);
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}

const CROSS_SITE_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Request refused · PRD Studio</title></head>' +
  "<body><h1>Request refused</h1><p>This form was sent from another site, so it was not processed. Go back to PRD Studio and try again from there.</p></body></html>";

/** The metrics' route label of a request that is not an API route: bounded, never the raw path. */
function otherRoute(pathname: string) {
  if (pathname.startsWith("/api/")) return "api_other";
  if (pathname.startsWith("/assets/") || (/\.[a-z0-9]+$/i.test(pathname) && !pathname.endsWith(".data"))) return "static";
  return "page";
}

/**
 * What server.ts does with every request: give it a request id (written into
 * its `X-Request-Id` header for the code that serves it, echoed in the
 * response's `X-Request-Id`), answer
 * /metrics, answer the API from its route table when there is one, hand the
 * rest to express (static files, Remix), then write one access-log line and
 * record the request's metrics. Every response carries the baseline security
 * headers (app/http/server/security-headers.server.ts): the API's from its route
 * table, everything else's (pages, resource routes, redirects, /metrics,
 * static files) filled in here just before the head is written.
 */
export function createNodeHandler(options: ServeOptions) {
  const { api, app, trustProxy, metricsToken } = options;

  function finished(req: IncomingMessage, res: ServerResponse, id: string, pathname: string, route: string, started: number, bytesBefore: number) {
    const seconds = (performance.now() - started) / 1000;
    const status = res.writableFinished ? res.statusCode : (guards.get(req)?.rawStatus ?? 499);
    observeRequest(req.method ?? "GET", route, status, seconds);
    logRequest({
      requestId: id,
      method: req.method ?? "GET",
      path: pathname,
      route,
      status,
      durationMs: Math.round(seconds * 10_000) / 10,
      bytes: req.socket ? req.socket.bytesWritten - bytesBefore : undefined,
    });
  }

  /** Serves one request; the promise settles when its answer has been handed to the socket. */
  function handle(req: IncomingMessage, res: ServerResponse, id: string, started: number, guard: BodyGuard | null): Promise<unknown> | void {
    const bytesBefore = req.socket?.bytesWritten ?? 0;
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query < 0 ? url : url.slice(0, query);
    const method = req.method ?? "GET";
    let route: string;

    if (api && isRoutedPath(pathname)) {
      const found = api.match(pathname, method);
      if (found) {
        route = found.entry.pattern;
        res.once("close", () => finished(req, res, id, pathname, route, started, bytesBefore));
        if (guard?.policy.refusal) return refuse(req, res, id, pathname, guard.policy.refusal, guard);
        // Past the bound while the route reads: its read fails with the 413 it answers in the envelope.
        if (guard) guard.onOverflow = () => void (req.listenerCount("error") > 0 && req.emit("error", tooLarge(guard.limit)));
        const request = toRequest(req, res, trustProxy);
        return api
          .run(found, request, { ip: clientIp(req, trustProxy) })
          .then((response) => sendResponse(res, response, id))
          .catch((error) => {
            logger.error("api response failed", { error, route });
            if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json", "X-Request-Id": id, ...Object.fromEntries(baselineHeaders()) });
            res.end();
          });
      }
    }
    res.setHeader("X-Request-Id", id);
    fillBaselineHeaders(res);
    if (pathname === "/metrics") {
      route = "/metrics";
      res.once("close", () => finished(req, res, id, pathname, route, started, bytesBefore));
      return serveMetrics(req, res, metricsToken).catch((error) => {
        logger.error("metrics failed", { error });
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    }
    route = otherRoute(pathname);
    res.once("close", () => finished(req, res, id, pathname, route, started, bytesBefore));
    if (!pathname.startsWith("/api/") && isCrossSiteNodeRequest(method, req.headers)) {
      // A form posted from another site: one log line and a plain 403, not Remix's 500 with a stack.
      logger.warn("cross-site form post refused", { requestId: id, path: redactPath(pathname), origin: req.headers.origin ?? null });
      res.writeHead(403, { "Content-Type": "text/html; charset=utf-8" });
      res.end(CROSS_SITE_PAGE);
      return;
    }
    if (!guard) return app(req, res);
    if (guard.policy.refusal) return refuse(req, res, id, pathname, guard.policy.refusal, guard);
    if (guard.policy.mode === "hold") {
      // A form is read whole (at most its bound) before Remix runs: formData() never sees more.
      return guard.complete.then((whole) => {
        if (whole) app(req, res);
        else if (guard.overflowed) refuse(req, res, id, pathname, bodyTooLarge(guard.limit, false), guard);
      });
    }
    // An upload streams to its route; cut off at the bound while the route reads it, the server answers on the socket.
    guard.onOverflow = () => {
      if (res.headersSent || req.socket.destroyed) return;
      const { headers, body } = refusalContent(bodyTooLarge(guard.limit, true), audienceOf(pathname, req.headers.accept, guard.policy.api));
      logger.info("request body refused", { requestId: id, path: redactPath(pathname), status: 413, code: "PAYLOAD_TOO_LARGE" });
      sealResponse(res);
      guard.rawStatus = 413;
      req.socket.write(rawResponse(413, [...headers, ["X-Request-Id", id], ...baselineHeaders()], body));
      guard.linger();
    };
    app(req, res);
  }

  /** Answers a body the server does not take (413, 415), through the response: nothing of it has been written. */
  function refuse(req: IncomingMessage, res: ServerResponse, id: string, pathname: string, refusal: Refusal, guard: BodyGuard) {
    logger.info("request body refused", { requestId: id, path: redactPath(pathname), status: refusal.status, code: refusal.code });
    const { headers, body } = refusalContent(refusal, audienceOf(pathname, req.headers.accept, guard.policy.api));
    const head = [...headers, ["Content-Length", String(Buffer.byteLength(body))], ["X-Request-Id", id]];
    // API routes get the baseline from their route table; this answer is not one of theirs.
    if (guard.policy.api) for (const [name, value] of baselineHeaders()) if (!res.hasHeader(name)) head.push([name, value]);
    res.writeHead(refusal.status, head.flat());
    res.end(body);
  }

  const admit = createTurns(TURN_BUDGET_MS);
  const guards = new WeakMap<IncomingMessage, BodyGuard>();
  return (req: IncomingMessage, res: ServerResponse) => {
    const arrived = performance.now();
    const id = requestIdFrom(req.headers["x-request-id"]);
    stampRequestId(req, id);
    requestArrived();
    // Now, before node hands over the body's first chunk (the turn may come later).
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const guard = guardBody(req, res, query < 0 ? url : url.slice(0, query));
    if (guard) guards.set(req, guard);
    // The access log's duration counts from arrival, the wait for a turn included.
    admit(() => handle(req, res, id, arrived, guard));
  };
}
