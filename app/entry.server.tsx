import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { requestIdOf } from "./http/request-id.server";
import { addDocumentHeaders, createNonce, withBaselineHeaders } from "./http/server/security-headers.server";
import { mustReplay, replayToPrimary } from "./ops/replay.server";
import { logger } from "./utils/log.server";
import { NonceContext } from "./utils/nonce";

/** What server.ts runs: configuration, logger, request handler, background work (app/server-runtime.server.ts). */
export * as runtime from "./server-runtime.server";

const ABORT_DELAY = 5_000;

/**
 * A form post that reached a LiteFS replica goes to the primary (fly-replay).
 * formValues() refuses it before the action writes; these two make sure the
 * answer is the replay, for plain form posts and for fetches alike.
 * Data requests (`.data`) carry the baseline security headers, as pages do.
 */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => withBaselineHeaders(mustReplay(request) ? replayToPrimary() : response);

/**
 * A loader, action or render that failed on the server, logged with the
 * request's id. 4xx answers (a missing page, a refused action) are not
 * errors of ours; neither is a client that went away.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const cause = isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error;
  logger.error("[remix] request failed", { requestId: requestIdOf(request), error: cause });
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  if (mustReplay(request)) return replayToPrimary();
  const bot = isbot(request.headers.get("user-agent") || "");
  // One nonce per page: the Content-Security-Policy allows inline scripts that carry it and no others.
  // Remix's <Scripts>/<ScrollRestoration> get it from NonceContext (root.tsx), its streamed data
  // scripts from RemixServer, React's own (Suspense) scripts from renderToPipeableStream.
  // The Vite dev server (its manifest has the HMR runtime) gets no policy: its client injects
  // inline styles and scripts and opens a websocket.
  const nonce = createNonce();
  const dev = Boolean((remixContext.manifest as { hmr?: unknown }).hmr);
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [bot ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          addDocumentHeaders(responseHeaders, dev ? null : nonce);
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error("[remix] render failed", { requestId: requestIdOf(request), error });
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
