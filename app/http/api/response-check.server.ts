import type Ajv2020 from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type { Contract } from "./contract";
import { openApiDocument, operationOf } from "./openapi.server";

/**
 * Checks one response against its operation in /api/openapi.json: the status
 * is declared, the content type is one the status declares, required headers
 * are there, and a JSON body (or each SSE event's data) validates against the
 * declared schema. Used by the test client on every API call
 * (tests/support/contract-check.ts) and, in development, by the API boundary
 * on live responses (./dev-contract-check.server.ts). ajv and ajv-formats
 * are dev dependencies: they are imported on first use, never in production.
 */

export interface ObservedResponse {
  status: number;
  headers: Headers;
  /** The body as text; undefined when it was not read (a stream, a file). */
  text?: string;
}

type Json = Record<string, any>;

let ajv: Ajv2020 | undefined;
const validators = new WeakMap<Contract, Map<string, ValidateFunction>>();

/** `#/components/schemas/X` → `components.json#/$defs/X`, so operation schemas compile on their own. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== "object") return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === "$ref" && typeof v === "string" ? v.replace("#/components/schemas/", "components.json#/$defs/") : rewriteRefs(v);
  }
  return out;
}

async function compiler() {
  if (ajv) return ajv;
  const [{ default: Ajv }, { default: addFormats }] = await Promise.all([import("ajv/dist/2020.js"), import("ajv-formats")]);
  const instance = new Ajv({ strict: false, allErrors: true, logger: false });
  addFormats(instance);
  const components = (openApiDocument().components as Json).schemas as Json;
  instance.addSchema({ $id: "components.json", $defs: rewriteRefs(components) as Json });
  return (ajv ??= instance);
}

async function validatorFor(c: Contract, key: string, schema: unknown) {
  let byKey = validators.get(c);
  if (!byKey) validators.set(c, (byKey = new Map()));
  let validate = byKey.get(key);
  if (!validate) byKey.set(key, (validate = (await compiler()).compile(rewriteRefs(schema) as Json)));
  return validate;
}

function describe(errors: ErrorObject[] | null | undefined) {
  return (errors ?? [])
    .slice(0, 8)
    .map((e) => {
      const extra = (e.params as { additionalProperty?: string }).additionalProperty;
      return `${e.instancePath || "/"} ${e.message}${extra ? ` (${extra})` : ""}`;
    })
    .join("; ");
}

const essence = (type: string | null) => (type ?? "").split(";")[0]!.trim().toLowerCase();

function mediaMatches(declared: string, actual: string) {
  if (declared === "*/*" || declared === actual) return true;
  return declared.endsWith("/*") && actual.startsWith(declared.slice(0, -1));
}

const isJson = (type: string) => type === "application/json" || type.endsWith("+json");

/** The `data:` payloads of an SSE body. */
function sseData(text: string) {
  return text
    .split("\n\n")
    .map((block) =>
      block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n"),
    )
    .filter(Boolean);
}

/** What is wrong with a response according to the contract's operation; [] when it is honest. */
export async function contractProblems(c: Contract, observed: ObservedResponse): Promise<string[]> {
  // A write that reached a LiteFS replica (app/ops/replay.server.ts): addressed to Fly's proxy, which replays it on the primary; no client sees it.
  if (observed.headers.has("fly-replay")) return [];
  const op = operationOf(c);
  const responses = op.responses as Record<string, Json>;
  const status = String(observed.status);
  const declared = responses[status] ?? responses[`${status[0]}XX`] ?? responses.default;
  if (!declared) return [`status ${status} is not declared (declared: ${Object.keys(responses).join(", ")})`];
  const problems: string[] = [];
  const headerComponents = (openApiDocument().components as Json).headers as Json;
  for (const [name, ref] of Object.entries((declared.headers ?? {}) as Json)) {
    const def = ref.$ref ? headerComponents[String(ref.$ref).split("/").pop()!] : ref;
    const value = observed.headers.get(name);
    if (value === null) {
      if (def?.required) problems.push(`required header ${name} is missing`);
      continue;
    }
    const schema = def?.schema as { type?: string; enum?: string[] } | undefined;
    if (schema?.enum && !schema.enum.includes(value)) problems.push(`header ${name}: ${value} is not one of ${schema.enum.join(", ")}`);
    if (schema?.type === "integer" && !/^-?\d+$/.test(value)) problems.push(`header ${name}: ${value} is not an integer`);
  }
  const content = declared.content as Json | undefined;
  if (!content) {
    if (observed.text) problems.push(`status ${status} is declared without a body, but one was sent`);
    return problems;
  }
  const actual = essence(observed.headers.get("Content-Type"));
  const media = Object.keys(content).find((type) => mediaMatches(type, actual));
  if (!media) {
    problems.push(`Content-Type ${actual || "(none)"} is not declared for ${status} (declared: ${Object.keys(content).join(", ")})`);
    return problems;
  }
  const schema = content[media].schema;
  if (!schema || observed.text === undefined) return problems;
  const validate = await validatorFor(c, `${status} ${media}`, schema);
  const payloads = media === "text/event-stream" ? sseData(observed.text) : isJson(actual) ? [observed.text] : [];
  for (const [i, payload] of payloads.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      problems.push(`${media === "text/event-stream" ? `event ${i}` : "the body"} is not JSON`);
      continue;
    }
    if (!validate(value)) problems.push(`${media === "text/event-stream" ? `event ${i}: ` : ""}${describe(validate.errors)}`);
  }
  return problems;
}
