import { z } from "zod/v4";
import { ERROR_STATUS } from "~/domain/errors";
import type { Contract } from "./contract";
import { allContracts } from "./contracts/index";
import { approvalRequestShape } from "./contracts/approvals";
import { errorShape } from "./contracts/shapes";

const approvalHeldShape = z.object({
  error: z.string(),
  code: z.literal("APPROVAL_REQUIRED"),
  approvalRequest: approvalRequestShape,
});


function schema(s: z.ZodType, io: "input" | "output") {
  const json = z.toJSONSchema(s, { io, unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

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
  return out;
}

function operation(c: Contract) {
  const responses: Record<string, unknown> = {};
  const ok = String(c.successStatus ?? 200);
  responses[ok] = c.responseType
    ? { description: "Success", content: { [c.responseType]: {} } }
    : {
        description: "Success",
        content: { "application/json": { schema: c.response ? schema(c.response, "output") : { type: "object" } } },
      };
  if (c.heldBy) {
    responses["202"] = {
      description: `Held for approval: an active approval workflow with trigger \`${c.heldBy}\` turned the action into an approval request; it runs when enough approvers approve (POST /api/approvals/{approvalId}/approve).`,
      content: { "application/json": { schema: { $ref: "#/components/schemas/ApprovalHeld" } } },
    };
  }
  const codes = new Set(c.errors ?? []);
  if (c.auth === "user") codes.add("UNAUTHORIZED");
  if (c.roles) codes.add("FORBIDDEN");
  if (c.body) codes.add("VALIDATION_ERROR");
  const byStatus = new Map<string, string[]>();
  for (const code of codes) {
    const status = String(ERROR_STATUS[code]);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, list] of byStatus) {
    responses[status] = {
      description: list.join(", "),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  const access =
    c.auth === "public"
      ? "Public."
      : c.auth === "optional"
        ? "Public; a session or API key is used when sent."
      : c.roles
        ? `Requires role ${c.roles.join(" or ")}.`
        : "Requires a session or API key.";
  const op: Record<string, unknown> = {
    operationId: `${c.method.toLowerCase()}${c.path.replace(/[{}]/g, "").replace(/[^a-zA-Z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ? ch.toUpperCase() : ""))}`,
    summary: c.summary,
    description: [c.description, access].filter(Boolean).join("\n\n"),
    tags: [c.tag],
    parameters: parameters(c),
    responses,
  };
  if (c.auth === "public") op.security = [];
  if (c.auth === "optional") op.security = [{}, { apiKey: [] }, { session: [] }];
  if (c.deprecated) op.deprecated = true;
  if (c.body) {
    const type = c.requestType === "multipart" ? "multipart/form-data" : "application/json";
    op.requestBody = { required: true, content: { [type]: { schema: schema(c.body, "input") } } };
  }
  return op;
}

let cached: unknown;

/** The OpenAPI 3.1 document, generated from the same contracts the routes use. */
export function openApiDocument() {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const c of allContracts) {
    paths[c.path] ??= {};
    paths[c.path]![c.method.toLowerCase()] = operation(c);
  }
  cached = {
    openapi: "3.1.0",
    info: {
      title: "PRD Studio API",
      version: "1",
      description:
        "Every response carries `API-Version: 1`. Errors are `{error, code, details?}`. Authenticate with the session cookie (same-origin for writes) or `Authorization: Bearer svc_...`.",
    },
    servers: [{ url: "/" }],
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "svc_ followed by 40 hex characters" },
        session: { type: "apiKey", in: "cookie", name: "__session" },
      },
      schemas: { Error: schema(errorShape, "output"), ApprovalHeld: schema(approvalHeldShape, "output") },
    },
    security: [{ apiKey: [] }, { session: [] }],
    tags: [...new Set(allContracts.map((c) => c.tag))].map((name) => ({ name })),
    paths,
  };
  return cached;
}
