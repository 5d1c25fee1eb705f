import { AppError } from "~/domain/errors";
import { requestIdOf } from "~/http/request-id.server";
import { logger } from "~/utils/log.server";

/**
 * A full disk. SQLite reports SQLITE_FULL when it cannot grow the
 * database or its WAL, and rolls the statement's transaction back, so nothing
 * half-written remains; file writes fail with ENOSPC. Both become 503
 * STORAGE_FULL with Retry-After, and the write can simply be sent again once
 * space returns (the connection stays usable).
 */

export const STORAGE_FULL_MESSAGE = "The server's disk is full; nothing was saved. Try again later.";

export function isStorageFull(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const code = (error as { code?: unknown }).code;
  return code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT";
}

export function storageFullError() {
  return new AppError("STORAGE_FULL", 503, STORAGE_FULL_MESSAGE, { headers: { "Retry-After": "60" } });
}

/** The STORAGE_FULL AppError for a disk-full failure (logged once per failure, with the request's id); anything else unchanged. */
export function asStorageError(error: unknown, requestId?: string): unknown {
  if (!isStorageFull(error)) return error;
  logger.error("[storage] write refused: disk full", { requestId, error: (error as Error).message });
  return storageFullError();
}

type DataFunction = (args: { request: Request }) => unknown;

/**
 * The page build with every loader and action guarded: a full disk that a
 * page's code did not turn into a form message itself (formFailure does)
 * becomes a thrown 503 Response with the message and Retry-After, so the
 * error page says what happened (Remix shows any other error as a bare
 * "unexpected error"). server.ts serves this build; API routes answer
 * STORAGE_FULL on their own and are unaffected.
 */
export function withStorageFullPages<B extends { routes: Record<string, { module: object } | undefined> }>(build: B): B {
  const guard = (fn: DataFunction): DataFunction =>
    async function guarded(args) {
      try {
        return await fn(args);
      } catch (error) {
        const converted = asStorageError(error, requestIdOf(args.request));
        if (!(converted instanceof AppError && converted.code === "STORAGE_FULL")) throw error;
        throw new Response(STORAGE_FULL_MESSAGE, {
          status: 503,
          statusText: "Service Unavailable",
          headers: { "Retry-After": "60", "Content-Type": "text/plain; charset=utf-8" },
        });
      }
    };
  const routes: Record<string, unknown> = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const { loader, action } = route.module as { loader?: DataFunction; action?: DataFunction };
    const module: Record<string, unknown> = { ...route.module };
    if (typeof loader === "function") module.loader = guard(loader);
    if (typeof action === "function") module.action = guard(action);
    routes[id] = { ...route, module };
  }
  return { ...build, routes };
}
