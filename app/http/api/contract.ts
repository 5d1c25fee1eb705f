import type { z } from "zod/v4";
import type { PlanId, Role } from "#db/schema";
import type { ErrorCode } from "~/domain/errors";
import type { ApiKeyScope } from "~/domain/api-keys/scopes";

/**
 * One endpoint of the contract: method, path and zod schemas. The route
 * wrapper validates with these schemas and /api/openapi.json is generated
 * from the same objects, so the two cannot drift.
 */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** `share`: a signed-in user, or an `x-share-token` (read-only, one project). */
export type AuthMode = "public" | "optional" | "user" | "share";

export interface Contract<
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  P extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: Method;
  /** OpenAPI-style path: /api/projects/{projectId} */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: AuthMode;
  /** Roles allowed (checked before validation; the domain checks again). */
  roles?: readonly Role[];
  /**
   * The API-key scope a key needs to call this (sessions are not limited by
   * scopes). Default: see `requiredScope` - `read` for GET, `admin` for other
   * calls only owners/admins may make, `write` for the rest.
   */
  scope?: ApiKeyScope;
  /** Lowest plan that may call this endpoint (403 PLAN_UPGRADE_REQUIRED). */
  plan?: PlanId;
  /** Feature flag that must be on for the caller (403 FEATURE_DISABLED). */
  flag?: string;
  /** `ai`: counts per user against the plan's AI request rate. */
  rateLimit?: "ai";
  body?: B;
  query?: Q;
  params?: P;
  /** How the body arrives when it is not JSON. */
  requestType?: "json" | "multipart";
  successStatus?: number;
  /** Other success statuses the handler answers with the same body (e.g. 200 for a replace beside 201 for a create). */
  alsoSuccess?: readonly number[];
  response?: z.ZodType;
  /**
   * Content type of a non-JSON success response; a list when it depends on
   * the request (`format=csv|json`) or the stored file (`image/webp`,
   * `image/png`; `*\/*` for a file served as uploaded). `text/event-stream`
   * marks an SSE stream: its events are the AI streams' (app/http/api/sse.server.ts
   * `StreamEvent`), or, when the contract has a `response`, that schema describes
   * each event's `data` payload (the live PRD's events).
   */
  responseType?: string | readonly string[];
  /**
   * The success response carries an `ETag`. `ifMatch`: the write honours
   * `If-Match` (a stale tag is 409 CONFLICT); `ifNoneMatch`: a GET answers 304
   * to a matching `If-None-Match`.
   */
  etag?: { ifMatch?: boolean; ifNoneMatch?: boolean };
  errors?: ErrorCode[];
  /**
   * A public endpoint authenticated by a token in its path or body and meant
   * to be called from other sites (incoming webhooks, unsubscribe links): no
   * same-origin check, since no cookie carries its authority.
   */
  crossSite?: boolean;
  /** A GET that writes (e.g. verify-email): replayed to the LiteFS primary. */
  writesOnGet?: boolean;
  deprecated?: { successor: string };
  /**
   * An approval-workflow trigger this operation can be held by: while such a
   * workflow is active it answers 202 `{error, code: "APPROVAL_REQUIRED", approvalRequest}`.
   */
  heldBy?: "prd_publish" | "prd_export" | "project_delete" | "template_publish";
}

export function contract<const C extends Contract<any, any, any>>(c: C): C {
  return c;
}

/** The scope an API key needs for a contract: decided with the rest of the policy (app/http/policy/). */
export { requiredScope } from "../policy/required-scope";
