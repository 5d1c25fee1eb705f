import type { AppLoadContext } from "@remix-run/node";
import { appUrl } from "~/config.server";
import type { RequestMeta } from "~/domain/actor";
import { requestIdOf } from "./request-id.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The client address as seen by server.ts (after TRUST_PROXY handling). */
    ip?: string | null;
  }
}

export function requestMeta(request: Request, context: AppLoadContext | undefined): RequestMeta {
  return {
    ip: context?.ip ?? null,
    userAgent: request.headers.get("User-Agent"),
    appUrl: appUrl(),
    requestId: requestIdOf(request),
  };
}
