import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";

/**
 * The id of the request being served, carried with AsyncLocalStorage so every
 * log line written while serving it (by the server or by domain code) names
 * it. An incoming `X-Request-Id` is kept when it looks sane (a proxy's id
 * ties its logs to ours); otherwise a new random id is made.
 */

export interface RequestContext {
  id: string;
}

// One store per process: server.ts (bundled on its own) and the Remix build each load a copy of this module.
const KEY = Symbol.for("prd-studio.request-context");
const shared = globalThis as { [KEY]?: AsyncLocalStorage<RequestContext> };
const storage = (shared[KEY] ??= new AsyncLocalStorage<RequestContext>());
const SANE = /^[A-Za-z0-9._-]{1,100}$/;

/** The id to use for a request, given its `X-Request-Id` header (if any). */
export function requestIdFrom(header: string | string[] | null | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && SANE.test(value) ? value : crypto.randomUUID();
}

/** Runs `fn` with `id` as the current request id. */
export function withRequestId<T>(id: string, fn: () => T): T {
  return storage.run({ id }, fn);
}

/** The current request's id, or undefined outside a request. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.id;
}
