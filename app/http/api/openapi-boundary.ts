import { z } from "zod/v4";
import { ERROR_STATUS, type ErrorCode } from "~/domain/errors";
import type { Contract } from "./contract";
import { connectionShape } from "./contracts/ai-keys";
import { approvalRequestShape } from "./contracts/approvals";
import { prdShape } from "./contracts/prd";
import { projectShape } from "./contracts/projects";

/**
 * What the API boundary (app/http/api/api.server.ts) adds to every operation of
 * /api/openapi.json: the errors it can answer before or around the handler,
 * the headers it sends and honours, the error bodies and the SSE events. The
 * generator (./openapi.server.ts) merges these with each contract's own.
 */

/**
 * The error codes the boundary itself can answer for a contract, each with
 * when. Mirrors `endpoint()` in ./api.server.ts step by step.
 */
export function boundaryErrors(c: Contract): Map<ErrorCode, string> {
  const out = new Map<ErrorCode, string>();
  const add = (code: ErrorCode, when: string) => out.set(code, out.has(code) ? `${out.get(code)}; ${when}` : when);
  add("VALIDATION_ERROR", "an `API-Version` request header other than 1");
  if (c.params || c.query || c.body) add("VALIDATION_ERROR", "the path, query or body fails the schema");
  const jsonBody = c.body && c.requestType !== "multipart";
  if (jsonBody) {
    add("INVALID_JSON", "the body is not valid JSON");
    add("PAYLOAD_TOO_LARGE", "the body is larger than MAX_JSON_BODY_BYTES (1 MB)");
    add("UNSUPPORTED_MEDIA_TYPE", "a body that is neither JSON nor form-urlencoded");
  }
  add("UNAUTHORIZED", "an `Authorization` header that is not a valid, unrevoked, unexpired API key");
  if (c.auth === "user") add("UNAUTHORIZED", "no session or API key");
  if (c.auth === "share") {
    add("UNAUTHORIZED", "no session, API key or `x-share-token`");
    add("INVALID_TOKEN", "an unknown or revoked `x-share-token`");
    add("SHARE_PASSWORD_REQUIRED", "a missing or wrong `x-share-password`");
    add("SHARE_EXPIRED", "an expired share link");
  }
  add("IP_NOT_ALLOWED", "the organization's IP allowlist does not cover the caller");
  if (c.method !== "GET" && !(c.crossSite && c.auth === "public")) {
    add("CSRF_FAILED", "a cookie-authenticated request from another origin");
  }
  if (c.roles) add("FORBIDDEN", `the caller's role is not ${c.roles.join(" or ")}`);
  if (c.auth !== "public") add("FORBIDDEN", "an API key without the scope this operation needs");
  if (c.plan) add("PLAN_UPGRADE_REQUIRED", `the organization's plan is below ${c.plan}`);
  if (c.flag) add("FEATURE_DISABLED", `the \`${c.flag}\` feature flag is off for the caller`);
  add("RATE_LIMITED", "the API key's per-minute budget is spent (60/min unless the key sets `rateLimit`)");
  if (c.rateLimit === "ai") add("RATE_LIMITED", "the plan's AI requests per minute are spent, or 5 AI requests are already running");
  add("INTERNAL_ERROR", "an unexpected failure (never a stack trace)");
  add("STORAGE_FULL", "the server's disk is full; nothing was saved");
  return out;
}

const header = (description: string, schema: Record<string, unknown> = { type: "string" }) => ({ description, schema });

/** Response headers, as `#/components/headers/<name>`. */
export const responseHeaders = {
  "API-Version": { ...header("The API version that answered: always `1`.", { type: "string", enum: ["1"] }), required: true },
  ETag: header("The entity tag of the resource: send it back in `If-Match` (writes) or `If-None-Match` (reads)."),
  "Retry-After": header("Seconds to wait before trying again.", { type: "integer", minimum: 0 }),
  "X-RateLimit-Limit": header("Requests allowed in the current window (the API key's, or the plan's AI budget).", { type: "integer" }),
  "X-RateLimit-Remaining": header("Requests left in the current window.", { type: "integer", minimum: 0 }),
  "X-RateLimit-Reset": header("When the window resets, in Unix seconds.", { type: "integer" }),
  Deprecation: header("`true` on a deprecated operation.", { type: "string", enum: ["true"] }),
  Link: header('The successor of a deprecated operation: `<path>; rel="successor-version"`.'),
  Location: header("Where the redirect goes."),
} as const;
export type ResponseHeader = keyof typeof responseHeaders;

export const headerRef = (name: ResponseHeader) => ({ $ref: `#/components/headers/${name}` });
const headerRefs = (...names: ResponseHeader[]) => Object.fromEntries(names.map((n) => [n, headerRef(n)]));

/** The headers of one response of a contract. */
export function headersFor(c: Contract, status: number): Record<string, unknown> {
  const names: ResponseHeader[] = ["API-Version"];
  const success = status < 400;
  // Every API-key request counts against the key's budget (docs/api.md, "REST API keys"), on any operation; AI operations also against the plan's.
  if (success || status === 429) names.push("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset");
  if (status === 429 || status === 503 || status === 423 || status === 502) names.push("Retry-After");
  if (c.etag && (status === 200 || status === 201 || status === 304)) names.push("ETag");
  if (c.deprecated && success) names.push("Deprecation", "Link");
  if (status >= 300 && status < 400 && status !== 304) names.push("Location");
  return headerRefs(...names);
}

/** Request header parameters, as `#/components/parameters/<name>`. */
export const requestParameters = {
  ApiVersion: {
    name: "API-Version",
    in: "header",
    required: false,
    description: "The API version the client speaks; anything but `1` is 400 VALIDATION_ERROR.",
    schema: { type: "string", enum: ["1"] },
  },
  IfMatch: {
    name: "If-Match",
    in: "header",
    required: false,
    description: "The ETag the client last read: if the resource has changed since, 409 CONFLICT (with `current`) instead of overwriting.",
    schema: { type: "string" },
  },
  IfNoneMatch: {
    name: "If-None-Match",
    in: "header",
    required: false,
    description: "ETags the client holds: a match answers 304 without a body.",
    schema: { type: "string" },
  },
} as const;

export function headerParameters(c: Contract) {
  const refs = [{ $ref: "#/components/parameters/ApiVersion" }];
  if (c.etag?.ifMatch) refs.push({ $ref: "#/components/parameters/IfMatch" });
  if (c.etag?.ifNoneMatch) refs.push({ $ref: "#/components/parameters/IfNoneMatch" });
  return refs;
}

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
const errorBase = {
  error: z.string().describe("What went wrong, in words for people"),
  code: z.enum(ERROR_CODES),
  details: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe("Validation errors: one entry per failing field"),
};

/** Every error body but 409's. Fields beyond `error`, `code`, `details` come with the codes named. */
export const errorBody = z.object({
  ...errorBase,
  limit: z.number().optional().describe("PAYLOAD_TOO_LARGE: the limit passed (bytes, parts, pixels or ms); LIMIT_REACHED: the plan's limit"),
  max: z.number().optional().describe("TOO_MANY_PROJECTS: the most one request takes"),
  metric: z.string().optional().describe("LIMIT_REACHED: the plan metric"),
  current: z.number().optional().describe("LIMIT_REACHED: the usage now"),
  requiredPlan: z.enum(["free", "starter", "pro", "enterprise"]).optional().describe("PLAN_UPGRADE_REQUIRED: the lowest plan that allows it"),
  flag: z.string().optional().describe("FEATURE_DISABLED: the flag that is off"),
  ip: z.string().nullable().optional().describe("IP_NOT_ALLOWED: the caller's address"),
  retryAfter: z.number().optional().describe("ACCOUNT_LOCKED, PROVIDER_ERROR of a rate-limited service: seconds to wait"),
  provider: z.string().optional().describe("PROVIDER_ERROR: the AI provider or service that failed"),
  providerStatus: z.number().optional().describe("PROVIDER_ERROR: the HTTP status the service answered"),
  connection: connectionShape.optional().describe("VALIDATION_ERROR of a key checked on save (`verify`): the failed test"),
});

/** A 409: the state the request collided with. */
export const conflictBody = z.object({
  ...errorBase,
  current: z.union([projectShape, prdShape]).optional().describe("CONFLICT of a stale write: the project or PRD as it is now"),
  currentVersionId: z.string().nullable().optional().describe("CONFLICT of a generation over an existing PRD: its current version"),
  currentIp: z.string().nullable().optional().describe("CONFLICT of an allowlist change that would lock the caller out: the caller's address"),
  organizations: z
    .array(z.object({ id: z.string(), name: z.string() }))
    .optional()
    .describe("OWNERSHIP_TRANSFER_REQUIRED: organizations the account still owns"),
  collaboratorId: z.string().optional().describe("CONFLICT: the existing collaborator"),
  conflicts: z
    .array(z.object({ base: z.string(), mine: z.string(), theirs: z.string() }))
    .optional()
    .describe("CONFLICT of a PRD save with `merge: true`: the places where both saves changed the same lines (common version, yours, theirs)"),
  provider: z.string().optional().describe("INTEGRATION_NOT_CONNECTED: the service to connect"),
});

/** 202 of an operation an active approval workflow holds. */
export const approvalHeldBody = z.object({
  error: z.string(),
  code: z.literal("APPROVAL_REQUIRED"),
  approvalRequest: approvalRequestShape,
  approvalRequests: z.array(approvalRequestShape).optional().describe("Bulk exports: every request made"),
});

export const errorSchemaName = (status: number) => (status === 409 ? "Conflict" : "Error");

/** The `data:` payloads of an SSE stream (app/http/api/sse.server.ts `StreamEvent`). */
export const streamEventSchemas = {
  StreamProgress: {
    type: "object",
    description: "Progress of the work: `phase` names the step.",
    properties: { type: { const: "progress" }, phase: { type: "string" }, percent: { type: "number", minimum: 0, maximum: 100 } },
    required: ["type", "phase", "percent"],
    additionalProperties: false,
  },
  StreamContent: {
    type: "object",
    description: "A chunk of the text; the chunks concatenate in order.",
    properties: { type: { const: "content" }, content: { type: "string" } },
    required: ["type", "content"],
    additionalProperties: false,
  },
  StreamDone: {
    type: "object",
    description: "The last event of a stream that succeeded: the whole text and who answered, plus fields of the operation (described with it).",
    properties: {
      type: { const: "done" },
      fullContent: { type: "string" },
      model: { type: "string" },
      provider: { type: "string", enum: ["provider_a", "provider_b", "provider_c", "builtin"] },
      keySource: { type: "string", enum: ["personal", "organization", "platform", "builtin"] },
      truncated: { type: "boolean", description: "The model hit its output limit" },
    },
    required: ["type"],
    additionalProperties: true,
  },
  StreamError: {
    type: "object",
    description: "The last event of a stream that failed; nothing was saved.",
    properties: { type: { const: "error" }, message: { type: "string" }, code: { const: "GENERATION_ERROR" } },
    required: ["type", "message", "code"],
    additionalProperties: false,
  },
  StreamEvent: {
    description: "One `data:` line of an SSE stream, as JSON.",
    oneOf: ["StreamProgress", "StreamContent", "StreamDone", "StreamError"].map((n) => ({ $ref: `#/components/schemas/${n}` })),
    discriminator: {
      propertyName: "type",
      mapping: {
        progress: "#/components/schemas/StreamProgress",
        content: "#/components/schemas/StreamContent",
        done: "#/components/schemas/StreamDone",
        error: "#/components/schemas/StreamError",
      },
    },
  },
} as const;

export const SSE_DESCRIPTION =
  "Success: a stream of server-sent events. Each event is one `data: <json>` line whose JSON is a `StreamEvent` (the schema below describes that payload, not the whole body): `progress`, `content` chunks, then exactly one `done` or `error`, after which the stream ends. Comment lines (`: heartbeat`) keep the connection open at least every 15 s.";

/** The description of an SSE stream with its own events (a contract whose `response` is the schema of one event). */
export const SSE_EVENTS_DESCRIPTION =
  "Success: a stream of server-sent events. Each event is one `data: <json>` line whose JSON validates against the schema below (one event's payload, not the whole body). Comment lines (`: heartbeat`) keep the connection open at least every 15 s.";

/** The media type object of an SSE success response: the schema is each event's `data` payload. */
export const sseMedia = () => ({ schema: { $ref: "#/components/schemas/StreamEvent" } });
