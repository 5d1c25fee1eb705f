import fc from "fast-check";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { useAiMocks } from "../mocks/server";
import { type TestClient, signedUpClient } from "../support/client";
import { type Account, setPlan } from "../support/org";
import { invalidValue, pathIdArbitrary, validValue } from "../support/schema-arbitrary";

/**
 * The contract holds under attack: for every operation of the served
 * OpenAPI document, fast-check generates path ids (unknown, hostile, another
 * organization's), queries and bodies from the document itself, valid and
 * invalid, and sends them as a signed-in stranger to the data and as nobody.
 * Every answer must use a status the document declares for that operation,
 * never 500, an error in the envelope (`{error, code}`) with no stack trace,
 * and a refused request (4xx) must leave the database as it was. Keys the
 * generated requests save send AI calls to the provider stand-ins (msw), never
 * to the network.
 */

useAiMocks();

type Op = { method: string; path: string; operationId: string; op: any };

const SEED = 20261126;
const SAMPLES = 4;

/** Operations a generated request may not run as the signed-in caller: they end the session or the organization every later call needs. */
const SELF_DESTRUCTIVE =
  /^(?:DELETE \/api\/organization$|POST \/api\/admin\/settings\/delete-(?:organization|all-projects)$|DELETE \/api\/user$|POST \/api\/auth\/(?:sign-out|logout)$|DELETE \/api\/user\/account$|POST \/api\/user\/delete)/;
/** A refused request may write only this: sign-in failures are counted for the lockout (docs/security.md). */
const MAY_WRITE_WHEN_REFUSED = /^POST \/api\/auth\//;

let doc: any;
let stranger: Account;
let foreignIds: string[];
let sent = 0;

async function changes() {
  const row = await sql<{ n: number }>`select total_changes() as n`.execute(db);
  return Number(row.rows[0]!.n);
}

function operations(): Op[] {
  const out: Op[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      if (item[method]) out.push({ method: method.toUpperCase(), path, operationId: item[method].operationId, op: item[method] });
    }
  }
  return out;
}

function sample<T>(arb: fc.Arbitrary<T>, n: number, seed: number) {
  return fc.sample(arb, { numRuns: n, seed });
}

function requestsFor(o: Op, seed: number) {
  const params: any[] = o.op.parameters ?? [];
  const bodySchema = o.op.requestBody?.content?.["application/json"]?.schema;
  const multipart = Boolean(o.op.requestBody?.content?.["multipart/form-data"]);
  const arb = fc.record({
    ids: fc.array(pathIdArbitrary(foreignIds), { minLength: 4, maxLength: 4 }),
    query: fc.record(Object.fromEntries(params.filter((p) => p.in === "query").map((p) => [p.name, fc.oneof(validValue(p.schema), invalidValue(p.schema))])), {
      requiredKeys: [],
    }),
    body: bodySchema ? fc.oneof(validValue(bodySchema), invalidValue(bodySchema)) : fc.constant(undefined),
  });
  return sample(arb, SAMPLES, seed).map(({ ids, query, body }) => {
    let i = 0;
    const path = o.path.replace(/\{\w+\}/g, () => encodeURIComponent(ids[i++ % ids.length]!));
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) qs.set(k, typeof v === "object" ? JSON.stringify(v) : String(v));
    const url = qs.size ? `${path}?${qs}` : path;
    return { url, body: multipart ? undefined : body, form: multipart ? new FormData() : undefined };
  });
}

interface Finding {
  who: string;
  op: string;
  url: string;
  status: number;
  problem: string;
}

async function attack(client: TestClient, who: string, o: Op, seed: number, findings: Finding[]) {
  const declared = new Set(Object.keys(o.op.responses ?? {}));
  const name = `${o.method} ${o.path}`;
  for (const r of requestsFor(o, seed)) {
    sent++;
    const before = await changes();
    let res;
    try {
      res = await client.call(o.method, r.url, r.form ? { body: r.form } : r.body === undefined ? {} : { json: r.body });
    } catch (error) {
      findings.push({ who, op: name, url: r.url, status: 0, problem: `threw: ${(error as Error).message.slice(0, 200)}` });
      continue;
    }
    const after = await changes();
    const note = (problem: string) => findings.push({ who, op: name, url: r.url.slice(0, 120), status: res.status, problem });
    // 502 (a provider failed) and 503 (disk full) are declared answers; 500 is a bug.
    if (res.status === 500) note(`server error: ${res.text.slice(0, 200)} for ${JSON.stringify(r.body)?.slice(0, 300)}`);
    if (!declared.has(String(res.status)) && !declared.has(`${String(res.status)[0]}XX`))
      note(`status ${res.status} not declared (${[...declared].join(", ")})`);
    if (res.status >= 400 && /\bat [\w.<>]+ \(|\.tsx?:\d+:\d+|node_modules\//.test(res.text)) note("stack trace in the body");
    if (res.status >= 400 && (res.headers.get("Content-Type") ?? "").includes("json")) {
      if (typeof res.body?.error !== "string" || typeof res.body?.code !== "string") note("error without the {error, code} envelope");
    }
    if (res.status >= 400 && res.status < 500 && after !== before && !MAY_WRITE_WHEN_REFUSED.test(name)) note(`refused, yet ${after - before} rows changed`);
  }
}

beforeAll(async () => {
  const reader = await signedUpClient({ name: "Doc Reader" });
  doc = (await reader.client.get("/api/openapi.json")).body;
  const victim = await signedUpClient({ name: "Vera Victim" });
  await setPlan(victim.organization.id, "enterprise");
  const project = (await victim.client.post("/api/projects", { name: "Victim's secret plan", description: "Not for strangers" })).body;
  foreignIds = [project.id, victim.organization.id, victim.user.id];
  stranger = await signedUpClient({ name: "Sam Stranger" });
  await setPlan(stranger.organization.id, "enterprise");
});

describe("every operation of the OpenAPI document, under generated requests", () => {
  it("answers a stranger and an anonymous caller only with declared statuses, the error envelope, no stack trace, and no write when refused", async () => {
    const findings: Finding[] = [];
    const ops = operations();
    expect(ops.length).toBeGreaterThan(150);
    const anonymous = new (stranger.client.constructor as new (ip: string) => TestClient)("10.9.9.9");
    for (const [i, o] of ops.entries()) {
      await attack(anonymous, "anonymous", o, SEED + i, findings);
      if (!SELF_DESTRUCTIVE.test(`${o.method} ${o.path}`)) await attack(stranger.client, "stranger", o, SEED + 1000 + i, findings);
    }
    expect(sent).toBeGreaterThan(ops.length * SAMPLES * 1.5);
    const report = findings.map((f) => `${f.who} ${f.op} → ${f.status}: ${f.problem} [${f.url}]`);
    expect(report, report.slice(0, 40).join("\n")).toEqual([]);
    // The victim's data is untouched and unseen.
    const still = await db.selectFrom("projects").select("name").where("id", "=", foreignIds[0]!).executeTakeFirst();
    expect(still?.name).toBe("Victim's secret plan");
  }, 240_000);
});
