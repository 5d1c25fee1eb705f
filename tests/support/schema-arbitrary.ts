import fc from "fast-check";

/**
 * fast-check arbitraries from the JSON Schemas of the served OpenAPI
 * document: values a client written from the document could send
 * (`valid`), and values that break it (`invalid`: a wrong type, a missing
 * required field, an unknown enum value, an oversized string, a hostile
 * string). Only the subset of JSON Schema our generator emits is read:
 * type, properties, required, items, enum, const, anyOf/oneOf, min/max
 * lengths and values, format.
 */

type Schema = Record<string, any>;

const HOSTILE = [
  "",
  " ",
  "'; DROP TABLE projects; --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "\u0000",
  "%00",
  "{{7*7}}",
  "${process.exit()}",
  "😀".repeat(3),
  "http://169.254.169.254/latest/meta-data/",
  "x".repeat(20_000),
];

function stringOf(s: Schema): fc.Arbitrary<string> {
  if (s.format === "email") return fc.emailAddress();
  if (s.format === "uri" || s.format === "url") return fc.webUrl();
  if (s.format === "date-time") return fc.date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.format === "date")
    return fc.date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, Math.max(min, 40));
  return fc.string({ minLength: min, maxLength: max });
}

function numberOf(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
  const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1000);
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(Math.max(min, max)) })
    : fc.double({ min, max: Math.max(min, max), noNaN: true, noDefaultInfinity: true });
}

export function validValue(s: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 6) return fc.constant(null);
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (Array.isArray(alternatives) && alternatives.length) return fc.oneof(...alternatives.map((a: Schema) => validValue(a, depth + 1)));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  switch (type) {
    case "string":
      return stringOf(s);
    case "integer":
      return numberOf(s, true);
    case "number":
      return numberOf(s, false);
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(validValue(s.items, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
    case "object":
    case undefined: {
      const props: Record<string, Schema> = s.properties ?? {};
      const required = new Set<string>(s.required ?? []);
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) shape[k] = validValue(v, depth + 1);
      return fc.record(shape, { requiredKeys: [...required].filter((k) => k in shape) });
    }
    default:
      return fc.constant(null);
  }
}

/** A value the schema refuses (for an object: one property broken, or a required one left out). */
export function invalidValue(s: Schema | undefined): fc.Arbitrary<unknown> {
  const wrongType = fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), fc.constantFrom(...HOSTILE), fc.array(fc.integer(), { maxLength: 2 }));
  if (!s) return wrongType;
  const props: Record<string, Schema> = s.properties ?? {};
  const keys = Object.keys(props);
  if ((s.type === "object" || keys.length) && keys.length) {
    const required: string[] = s.required ?? [];
    const broken = fc
      .constantFrom(...keys)
      .chain((key) => fc.tuple(validValue(s), fc.oneof(wrongType, fc.constantFrom(...HOSTILE))).map(([base, bad]) => ({ ...(base as object), [key]: bad })));
    const missing = required.length
      ? fc.constantFrom(...required).chain((key) =>
          validValue(s).map((base) => {
            const copy = { ...(base as Record<string, unknown>) };
            delete copy[key];
            return copy;
          }),
        )
      : broken;
    return fc.oneof(broken, missing, wrongType);
  }
  return wrongType;
}

/** Path ids a stranger might try: unknown ids, hostile strings, an id from another organization. */
export function pathIdArbitrary(foreignIds: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.uuid(),
    fc.constantFrom("0", "-1", "null", "undefined", "..%2F..%2Fetc", "%00", "a".repeat(300), "' OR 1=1 --"),
    ...(foreignIds.length ? [fc.constantFrom(...foreignIds)] : []),
  );
}
