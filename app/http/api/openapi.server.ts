import { z } from "zod/v4";
import { ERROR_STATUS, type ErrorCode } from "~/domain/errors";
import type { Contract } from "./contract";
import { allContracts } from "./contracts/index";
import {
  approvalHeldBody,
  boundaryErrors,
  conflictBody,
  errorBody,
  errorSchemaName,
  headerParameters,
  headersFor,
  requestParameters,
  responseHeaders,
  SSE_DESCRIPTION,
  SSE_EVENTS_DESCRIPTION,
  sseMedia,
  streamEventSchemas,
} from "./openapi-boundary";
import { TAG_DESCRIPTIONS } from "./openapi-tags";

type Json = Record<string, unknown>;
type ZodInternals = {
  _zod: {
    def: { type: string; shape?: Record<string, ZodLike>; in?: ZodLike; out?: ZodLike; innerType?: ZodLike; entries?: Record<string, unknown> };
    optin?: string;
  };
};
type ZodLike = ZodInternals & { safeParse(v: unknown): { success: boolean } };

/** Whether `value` passes a schema (false for one that can only parse asynchronously). */
function passes(s: Pick<ZodLike, "safeParse">, value: unknown) {
  try {
    return s.safeParse(value).success;
  } catch {
    return false;
  }
}

/** Whether leaving a field out passes its schema (`.optional()`, `.default()`, a preprocess that maps undefined to something accepted...). */
const acceptsUndefined = (s: ZodLike) => s._zod.optin === "optional" || passes(s, undefined);

/** The values of an enum, looking through optional/nullable/default wrappers. */
function enumValues(s: ZodLike | undefined): unknown[] | undefined {
  const def = s?._zod.def;
  if (!def) return undefined;
  if (def.type === "enum" && def.entries) return Object.values(def.entries);
  if (def.type === "optional" || def.type === "nullable" || def.type === "default" || def.type === "prefault") return enumValues(def.innerType);
  if (def.type === "pipe") return enumValues(def.out);
  return undefined;
}

/**
 * A request (`input`) or response (`output`) JSON Schema of a zod schema.
 * Requests describe what the client may send, which zod's own rendering gets
 * wrong in two ways this corrects: a field counts as required unless leaving
 * it out passes (zod marks a preprocessed optional field required), and a
 * string normalised into an enum (`.trim().toLowerCase().pipe(z.enum(...))`)
 * keeps the enum's values.
 */
export function jsonSchema(s: z.ZodType, io: "input" | "output"): Json {
  const json = z.toJSONSchema(s, {
    io,
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema: out }) => {
      if (io !== "input") return;
      const def = (zodSchema as unknown as ZodLike)._zod.def;
      if (def.type === "object" && def.shape) {
        const required = Object.entries(def.shape)
          .filter(([, field]) => !acceptsUndefined(field))
          .map(([key]) => key);
        if (required.length) out.required = required;
        else delete out.required;
      }
      if (def.type === "pipe" && def.in?._zod.def.type !== "transform" && !out.enum) {
        const values = enumValues(def.out);
        if (values) out.enum = values as (string | number)[];
      }
    },
  }) as Json;
  delete json.$schema;
  if (json.$defs) throw new Error("A contract schema is recursive or names an `id`: give it a component instead of $defs");
  return json;
}
const schema = jsonSchema;

function parameters(c: Contract) {
  const out: unknown[] = [];
  for (const match of c.path.matchAll(/\{(\w+)\}/g)) {
    out.push({ name: match[1], in: "path", required: true, schema: { type: "string" } });
  }
  if (c.query) {
    const q = schema(c.query, "input") as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, s] of Object.entries(q.properties ?? {})) {
      out.push({ name, in: "query", required: q.required?.includes(name) ?? false, schema: s });
    }
  }
  out.push(...headerParameters(c));
  return out;
}

/** The content types of a contract's success response. */
export function responseTypes(c: Pick<Contract, "responseType">): readonly string[] {
  return c.responseType === undefined ? ["application/json"] : typeof c.responseType === "string" ? [c.responseType] : c.responseType;
}

function successContent(c: Contract) {
  const content: Record<string, unknown> = {};
  for (const type of responseTypes(c)) {
    // An SSE stream's `response` is the schema of one event; without one, the AI streams' StreamEvent.
    if (type === "text/event-stream") content[type] = c.response ? { schema: schema(c.response, "output") } : sseMedia();
    else if (type === "application/json" && c.responseType === undefined) {
      content[type] = { schema: c.response ? schema(c.response, "output") : { type: "object" } };
    } else content[type] = c.response ? { schema: schema(c.response, "output") } : {};
  }
  return content;
}

function successResponse(c: Contract, status: number) {
  if (status >= 300 && status < 400) {
    return { description: "Redirect (the operation's answer, see its description)", headers: headersFor(c, status) };
  }
  const streams = responseTypes(c).includes("text/event-stream");
  return {
    description: streams ? (c.response ? SSE_EVENTS_DESCRIPTION : SSE_DESCRIPTION) : "Success",
    headers: headersFor(c, status),
    content: successContent(c),
  };
}

/** Every error code an operation can answer with when: the contract's own and the boundary's. */
function errorCodes(c: Contract) {
  const codes = new Map<ErrorCode, string | undefined>((c.errors ?? []).map((code) => [code, undefined]));
  for (const [code, when] of boundaryErrors(c)) codes.set(code, when);
  return codes;
}

const memo = new WeakMap<Contract, Json>();

/** The OpenAPI operation of a contract (the same object the document holds). */
export function operationOf(c: Contract): Json {
  const known = memo.get(c);
  if (known) return known;
  const responses: Record<string, unknown> = {};
  for (const ok of [c.successStatus ?? 200, ...(c.alsoSuccess ?? [])]) responses[String(ok)] = successResponse(c, ok);
  if (c.etag?.ifNoneMatch) {
    responses["304"] = { description: "Not modified: `If-None-Match` holds the current ETag; no body", headers: headersFor(c, 304) };
  }
  if (c.heldBy) {
    if (responses["202"]) throw new Error(`${c.method} ${c.path}: a 202 success cannot also be the approval hold's 202`);
    responses["202"] = {
      description: `Held for approval: an active approval workflow with trigger \`${c.heldBy}\` turned the action into an approval request; it runs when enough approvers approve (POST /api/approvals/{approvalId}/approve).`,
      headers: headersFor(c, 202),
      content: { "application/json": { schema: { $ref: "#/components/schemas/ApprovalHeld" } } },
    };
  }
  const byStatus = new Map<number, string[]>();
  for (const [code, when] of errorCodes(c)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), when ? `\`${code}\`: ${when}` : `\`${code}\``]);
  }
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: list.join("; "),
      headers: headersFor(c, status),
      content: { "application/json": { schema: { $ref: `#/components/schemas/${errorSchemaName(status)}` } } },
    };
  }
  const access =
    c.auth === "public"
      ? "Public."
      : c.auth === "optional"
        ? "Public; a session or API key is used when sent."
        : c.auth === "share"
          ? "Requires a session or API key, or an `x-share-token` (with `x-share-password` when the link has one)."
          : c.roles
            ? `Requires role ${c.roles.join(" or ")}.`
            : "Requires a session or API key.";
  const op: Json = {
    operationId: `${c.method.toLowerCase()}${c.path.replace(/[{}]/g, "").replace(/[^a-zA-Z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ? ch.toUpperCase() : ""))}`,
    summary: c.summary,
    description: [c.description, access].filter(Boolean).join("\n\n"),
    tags: [c.tag],
    parameters: parameters(c),
    responses,
  };
  if (c.auth === "public") op.security = [];
  if (c.auth === "optional") op.security = [{}, { apiKey: [] }, { session: [] }];
  if (c.auth === "share") op.security = [{ apiKey: [] }, { session: [] }, { shareToken: [] }, { shareToken: [], sharePassword: [] }];
  if (c.deprecated) op.deprecated = true;
  if (c.body) {
    const multipart = c.requestType === "multipart";
    const type = multipart ? "multipart/form-data" : "application/json";
    // An empty JSON body is read as {}: the body is optional when {} passes.
    const required = multipart || !passes(c.body, {});
    op.requestBody = { required, content: { [type]: { schema: schema(c.body, "input") } } };
  }
  memo.set(c, op);
  return op;
}

/** The document's components: error bodies, SSE events, headers, parameters, security schemes. */
function components() {
  return {
    securitySchemes: {
      apiKey: { type: "http", scheme: "bearer", description: "An API key: `svc_` followed by 40 hex characters." },
      session: {
        type: "apiKey",
        in: "cookie",
        name: "__session",
        description: "The browser session (sign in with POST /api/auth/sign-in); writes must be same-origin.",
      },
      shareToken: { type: "apiKey", in: "header", name: "x-share-token", description: "A project's share link token: read-only access to that project." },
      sharePassword: {
        type: "apiKey",
        in: "header",
        name: "x-share-password",
        description: "The password of a share link that has one, sent with `x-share-token`.",
      },
    },
    schemas: {
      Error: schema(errorBody, "output"),
      Conflict: schema(conflictBody, "output"),
      ApprovalHeld: schema(approvalHeldBody, "output"),
      ...streamEventSchemas,
    },
    headers: responseHeaders,
    parameters: requestParameters,
  };
}

let cached: Json | undefined;

/** The OpenAPI 3.1 document, generated from the same contracts the routes use. */
export function openApiDocument(): Json {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const c of allContracts) {
    paths[c.path] ??= {};
    paths[c.path]![c.method.toLowerCase()] = operationOf(c);
  }
  const tags = [...new Set(allContracts.map((c) => c.tag))];
  const undescribed = tags.filter((t) => !TAG_DESCRIPTIONS[t]);
  if (undescribed.length) throw new Error(`Describe the tag(s) ${undescribed.join(", ")} in app/http/api/openapi-tags.ts`);
  cached = {
    openapi: "3.1.0",
    info: {
      title: "PRD Studio API",
      version: "1",
      description:
        "Every response carries `API-Version: 1`. Errors are `{error, code, details?}` (`Error`; a 409 is a `Conflict`, which adds the state collided with). Authenticate with the session cookie (same-origin for writes), `Authorization: Bearer svc_...` or, on a shared project's reads, `x-share-token`. Every operation may also answer what the API boundary itself checks: 400 (`API-Version`, schema), 401 (a bad API key), 403 (IP allowlist, CSRF, role, scope, plan, flag), 429 (API key and AI budgets, with `X-RateLimit-*` and `Retry-After`), 500 and 503 `STORAGE_FULL` (`Retry-After`).",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: "/", description: "This server" }],
    components: components(),
    security: [{ apiKey: [] }, { session: [] }],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
  };
  return cached;
}
