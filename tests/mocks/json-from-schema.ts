/**
 * A minimal valid value for a JSON Schema, as a model asked for structured
 * output would answer when nobody scripted the answer. Understands the
 * JSON Schema that `z.toJSONSchema` writes (draft 2020-12 and draft-07,
 * `$ref`/`$defs`, `anyOf`/`oneOf`/`allOf`, `const`, `enum`, numeric and
 * length bounds, `format`) and the OpenAPI subset Gemini's `responseSchema`
 * uses (upper-case `type`, `nullable`, bounds sent as strings).
 */

export type JSONSchema = boolean | { [key: string]: any };

const SAMPLE = "sample text";
const FORMATS: Record<string, string> = {
  "date-time": "2024-01-01T00:00:00.000Z",
  date: "2024-01-01",
  time: "00:00:00",
  email: "user@example.com",
  uri: "https://example.com",
  url: "https://example.com",
  uuid: "00000000-0000-4000-8000-000000000000",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  hostname: "example.com",
  duration: "P1D",
};

const num = (v: unknown): number | undefined => (v === undefined || v === null || v === "" || typeof v === "boolean" ? undefined : Number(v));

export function sampleFromSchema(schema: JSONSchema): unknown {
  return sample(schema, typeof schema === "object" ? schema : {}, 0, 0);
}

function resolveRef(ref: string, root: Record<string, any>): JSONSchema {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return {};
  let node: any = root;
  for (const part of ref.slice(2).split("/")) node = node?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  return node ?? {};
}

function typeOf(schema: Record<string, any>): string | undefined {
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => String(t).toLowerCase() !== "null") ?? type[0];
  if (typeof type === "string") return type.toLowerCase();
  if (schema.properties || schema.required || schema.additionalProperties) return "object";
  if (schema.items || schema.prefixItems) return "array";
  if (schema.minLength !== undefined || schema.pattern || schema.format) return "string";
  if (schema.minimum !== undefined || schema.maximum !== undefined) return "number";
  return undefined;
}

function sample(schema: JSONSchema, root: Record<string, any>, depth: number, index: number): unknown {
  if (schema === true || schema === false) return null;
  if (depth > 24) return null;
  if (typeof schema.$ref === "string") {
    const { $ref, ...rest } = schema;
    const target = resolveRef($ref, root);
    return sample(typeof target === "object" ? { ...target, ...rest } : target, root, depth + 1, index);
  }
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return schema.enum[Math.min(index, schema.enum.length - 1)] ?? schema.enum[0];
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const { allOf, ...rest } = schema;
    const merged = (allOf as JSONSchema[]).reduce<Record<string, any>>((acc, part) => {
      const p = typeof part === "object" ? part : {};
      return {
        ...acc,
        ...p,
        properties: { ...acc.properties, ...p.properties },
        required: [...(acc.required ?? []), ...(p.required ?? [])],
      };
    }, rest);
    return sample(merged, root, depth + 1, index);
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      const isNull = (o: any) => typeof o === "object" && String(o.type).toLowerCase() === "null";
      const { [key]: _, ...rest } = schema;
      const first = options.find((o) => !isNull(o)) ?? options[0];
      return sample(typeof first === "object" ? { ...rest, ...first } : first, root, depth + 1, index);
    }
  }
  switch (typeOf(schema)) {
    case "object":
      return sampleObject(schema, root, depth);
    case "array":
      return sampleArray(schema, root, depth);
    case "string":
      return sampleString(schema, index);
    case "integer":
      return sampleNumber(schema, true);
    case "number":
      return sampleNumber(schema, false);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return null;
  }
}

function sampleObject(schema: Record<string, any>, root: Record<string, any>, depth: number) {
  const out: Record<string, unknown> = {};
  const properties: Record<string, JSONSchema> = schema.properties ?? {};
  for (const [key, prop] of Object.entries(properties)) out[key] = sample(prop, root, depth + 1, 0);
  for (const key of (schema.required as string[] | undefined) ?? []) {
    if (!(key in out))
      out[key] =
        schema.additionalProperties && typeof schema.additionalProperties === "object" ? sample(schema.additionalProperties, root, depth + 1, 0) : SAMPLE;
  }
  const minProps = num(schema.minProperties) ?? 0;
  for (let i = Object.keys(out).length; i < minProps; i++) {
    const extra = typeof schema.additionalProperties === "object" ? schema.additionalProperties : { type: "string" };
    out[`key${i + 1}`] = sample(extra, root, depth + 1, 0);
  }
  return out;
}

function sampleArray(schema: Record<string, any>, root: Record<string, any>, depth: number) {
  const prefix: JSONSchema[] = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
  const items: JSONSchema = Array.isArray(schema.items) ? (schema.additionalItems ?? {}) : (schema.items ?? {});
  const max = num(schema.maxItems) ?? Infinity;
  const count = Math.min(Math.max(num(schema.minItems) ?? 0, prefix.length, 1), max);
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const itemSchema = prefix[i] ?? items;
    // Vary enums and strings by position so uniqueItems holds.
    out.push(sample(itemSchema, root, depth + 1, schema.uniqueItems ? i : 0));
  }
  return out;
}

function sampleString(schema: Record<string, any>, index: number) {
  const format = typeof schema.format === "string" ? FORMATS[schema.format] : undefined;
  let text = format ?? (index > 0 ? `${SAMPLE} ${index + 1}` : SAMPLE);
  const min = num(schema.minLength) ?? 0;
  const max = num(schema.maxLength) ?? Infinity;
  while (text.length < min) text += "x";
  if (text.length > max) text = text.slice(0, max);
  return text;
}

function sampleNumber(schema: Record<string, any>, integer: boolean) {
  const step = integer ? 1 : 0.5;
  // draft-04 uses boolean exclusiveMinimum/exclusiveMaximum next to minimum/maximum.
  let lo = num(schema.minimum) ?? -Infinity;
  let hi = num(schema.maximum) ?? Infinity;
  if (schema.exclusiveMinimum === true) lo += step;
  else if (num(schema.exclusiveMinimum) !== undefined) lo = Math.max(lo, num(schema.exclusiveMinimum)! + step);
  if (schema.exclusiveMaximum === true) hi -= step;
  else if (num(schema.exclusiveMaximum) !== undefined) hi = Math.min(hi, num(schema.exclusiveMaximum)! - step);
  if (integer) {
    lo = Math.ceil(lo);
    hi = Math.floor(hi);
  }
  let value: number;
  if (Number.isFinite(lo) && Number.isFinite(hi) && hi - lo <= 1000) value = lo + (hi - lo) / 2;
  else value = Math.min(Math.max(1, lo), hi);
  if (integer) value = Math.floor(value);
  const multipleOf = num(schema.multipleOf);
  if (multipleOf && multipleOf > 0) {
    const up = Math.ceil(value / multipleOf) * multipleOf;
    value = up <= hi ? up : Math.floor(value / multipleOf) * multipleOf;
  }
  return value;
}
