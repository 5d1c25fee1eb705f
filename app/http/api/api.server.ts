import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod/v4";
import { isPrimary } from "~/db.server";
import { replayToPrimary } from "~/ops/replay.server";
import type { Actor, RequestMeta } from "~/domain/actor";
import { AppError, PrimaryRequired } from "~/domain/errors";
import { asStorageError } from "~/ops/storage-errors.server";
import type { ShareViewer, Viewer } from "~/domain/projects/access.server";
import { resolveShare } from "~/domain/sharing/share-access.server";
import { releaseAfterBody } from "../ai-rate.server";
import { guard } from "../policy/guard.server";
import { authenticate } from "./authenticate.server";
import { queryToObject, readBody } from "./body.server";
import { requestMeta } from "../context.server";
import { requestIdOf } from "../request-id.server";
import type { Contract, Method } from "./contract";
import { assertSameOrigin } from "../csrf.server";
import { withContractCheck } from "./dev-contract-check.server";
import { API_VERSION, errorResponse, jsonResponse } from "./respond.server";

/**
 * The API boundary, written once: authenticate -> authorize -> validate ->
 * call the domain -> serialize. Every /api route is built from `endpoint`s.
 */

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerArgs<C extends Contract<any, any, any>> {
  actor: C["auth"] extends "user" ? Actor : Actor | null;
  /** The signed-in actor, or for `share` contracts the share-link viewer. */
  viewer: C["auth"] extends "user" | "share" ? Viewer : Viewer | null;
  body: Out<C["body"]>;
  query: Out<C["query"]>;
  params: Out<C["params"]>;
  request: Request;
  context: AppLoadContext;
  meta: RequestMeta;
  /** Headers to send with the response (e.g. Set-Cookie). */
  headers: Headers;
}

export interface Endpoint {
  contract: Contract<any, any, any>;
  run(args: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response>;
}

export function endpoint<C extends Contract<any, any, any>>(contract: C, handler: (args: HandlerArgs<C>) => Promise<unknown> | unknown): Endpoint {
  return withContractCheck({
    contract,
    async run({ request, params, context }) {
      const headers = new Headers({ "API-Version": API_VERSION });
      // An AI slot held for the request (rateLimit "ai"), given back when its answer has been sent.
      let release: (() => void) | undefined;
      try {
        checkApiVersion(request);
        // On a LiteFS replica the database is read-only: a write (or a GET
        // that writes) is replayed by Fly's proxy on the primary.
        const writes = request.method === "GET" || request.method === "HEAD" ? contract.writesOnGet : true;
        if (writes && !isPrimary()) return replayToPrimary();
        let actor: Actor | null = null;
        let share: ShareViewer | null = null;
        const shareToken = request.headers.get("x-share-token");
        if (contract.auth === "share" && shareToken) {
          share = await resolveShare(shareToken, request.headers.get("x-share-password"));
        } else if (contract.auth !== "public" || request.headers.has("Authorization")) {
          const auth = await authenticate(request, context);
          actor = auth.actor;
          for (const [k, v] of Object.entries(auth.headers)) headers.set(k, v);
        }
        if (!request.headers.has("Authorization") && !(contract.crossSite && contract.auth === "public")) assertSameOrigin(request);
        // The policy of every door (app/http/policy/guard.server.ts); the params, query and body are read once it has settled the caller's authority.
        let parsedParams: unknown = params;
        let query: unknown;
        const passed = await guard(actor, contract, {
          share: Boolean(share),
          read: async () => {
            parsedParams = contract.params ? contract.params.parse(params) : params;
            query = contract.query ? contract.query.parse(queryToObject(request.url)) : undefined;
            return contract.body && contract.requestType !== "multipart" ? contract.body.parse(await readBody(request)) : undefined;
          },
        });
        const body = passed.input;
        release = passed.release;
        for (const [k, v] of Object.entries(passed.headers)) headers.set(k, v);

        const result = await handler({
          actor: actor as HandlerArgs<C>["actor"],
          viewer: (actor ?? share) as HandlerArgs<C>["viewer"],
          body,
          query,
          params: parsedParams,
          request,
          context,
          meta: requestMeta(request, context),
          headers,
        } as HandlerArgs<C>);
        if (contract.deprecated) {
          headers.set("Deprecation", "true");
          headers.set("Link", `<${contract.deprecated.successor}>; rel="successor-version"`);
        }
        if (result instanceof Response) {
          headers.forEach((value, key) => {
            if (!result.headers.has(key)) result.headers.set(key, value);
          });
          return release ? releaseAfterBody(result, release) : result;
        }
        release?.();
        return jsonResponse(result ?? { success: true }, contract.successStatus ?? 200, headers);
      } catch (error) {
        release?.();
        if (error instanceof PrimaryRequired) return replayToPrimary();
        const requestId = requestIdOf(request);
        return errorResponse(asStorageError(error, requestId), headers, requestId);
      }
    },
  });
}

function checkApiVersion(request: Request) {
  const requested = request.headers.get("API-Version");
  if (requested !== null && requested.trim() !== API_VERSION) {
    throw new AppError("VALIDATION_ERROR", 400, `API version ${requested} is not supported; this server speaks version 1`, {
      details: [{ path: "API-Version", message: "Only version 1 is supported" }],
    });
  }
}

function dispatch(endpoints: Endpoint[], allowed: Method[]) {
  return async (args: LoaderFunctionArgs | ActionFunctionArgs) => {
    const method = args.request.method.toUpperCase();
    const match = endpoints.find((e) => e.contract.method === method || (method === "HEAD" && e.contract.method === "GET"));
    if (match) return match.run(args);
    return errorResponse(
      new AppError("METHOD_NOT_ALLOWED", 405, `${method} is not supported here; use ${allowed.join(", ")}`, {
        headers: { Allow: allowed.join(", ") },
      }),
      { "API-Version": API_VERSION },
    );
  };
}

/**
 * Builds a route module's `loader` and `action` from its endpoints:
 *   export const { loader, action } = apiRoute(endpoint(...), endpoint(...));
 * Methods without an endpoint answer 405 in the envelope.
 */
export function apiRoute(...endpoints: Endpoint[]) {
  const allowed = endpoints.map((e) => e.contract.method);
  return {
    loader: dispatch(
      endpoints.filter((e) => e.contract.method === "GET"),
      allowed,
    ),
    action: dispatch(
      endpoints.filter((e) => e.contract.method !== "GET"),
      allowed,
    ),
    endpoints,
  };
}
