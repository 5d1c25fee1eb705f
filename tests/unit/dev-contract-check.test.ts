import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod/v4";
import { endpoint } from "~/http/api/api.server";
import { contract } from "~/http/api/contract";
import { contractCheckOn } from "~/http/api/dev-contract-check.server";
import { setLogLevel, setLogSink } from "~/utils/log.server";

/** Development's check of live API answers against their contract (app/http/api/dev-contract-check.server.ts). */

const probe = contract({
  method: "GET",
  path: "/api/contract-probe",
  tag: "System",
  summary: "A probe",
  auth: "public",
  response: z.object({ ok: z.boolean() }),
});

const lines: string[] = [];
const call = (handler: () => unknown) =>
  endpoint(probe, handler).run({ request: new Request("http://localhost:3000/api/contract-probe"), params: {}, context: {} } as never);

describe("the development contract check", () => {
  process.env.CONTRACT_CHECK = "1";
  beforeAll(() => {
    setLogLevel("info");
    setLogSink((line) => {
      lines.push(line);
      if (line.startsWith('{"level":"error"')) console.error(line);
    });
  });
  afterAll(() => {
    delete process.env.CONTRACT_CHECK;
    setLogLevel();
    setLogSink((line) => {
      if (line.startsWith('{"level":"error"')) console.error(line);
    });
  });

  it("is on in development unless CONTRACT_CHECK=0, and wherever CONTRACT_CHECK=1", () => {
    expect(contractCheckOn({ NODE_ENV: "development" })).toBe(true);
    expect(contractCheckOn({})).toBe(true);
    expect(contractCheckOn({ NODE_ENV: "development", CONTRACT_CHECK: "0" })).toBe(false);
    expect(contractCheckOn({ NODE_ENV: "production" })).toBe(false);
    expect(contractCheckOn({ NODE_ENV: "test" })).toBe(false);
    expect(contractCheckOn({ NODE_ENV: "production", CONTRACT_CHECK: "1" })).toBe(true);
  });

  it("logs one warning for a handler that answers outside its contract, and leaves the answer alone", async () => {
    lines.length = 0;
    const res = await call(() => ({ ok: "yes", extra: 1 }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: "yes", extra: 1 });
    // The first check loads ajv and builds the document: allow it time.
    await vi.waitFor(() => expect(lines.filter((l) => l.includes("[contract]"))).toHaveLength(1), { timeout: 15_000 });
    const line = JSON.parse(lines.find((l) => l.includes("[contract]"))!);
    expect(line.level).toBe("warn");
    expect(line.msg).toBe("[contract] GET /api/contract-probe answered 200 outside its contract");
    expect(line.problems.join(" ")).toMatch(/\/ok must be boolean/);
    expect(line.problems.join(" ")).toMatch(/additional properties \(extra\)/);
  });

  it("says nothing about an honest answer, a declared error included", async () => {
    lines.length = 0;
    expect((await call(() => ({ ok: true }))).status).toBe(200);
    const error = await endpoint(probe, () => ({ ok: true })).run({
      request: new Request("http://localhost:3000/api/contract-probe", { headers: { "API-Version": "2" } }),
      params: {},
      context: {},
    } as never);
    expect(error.status).toBe(400);
    // A wrong answer after them: once its line is there, the honest ones' checks are done too.
    await call(() => ({ ok: 1 }));
    await vi.waitFor(() => expect(lines.filter((l) => l.includes("[contract]")).length).toBeGreaterThan(0), { timeout: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = lines.filter((l) => l.includes("[contract]")).map((l) => JSON.parse(l) as { problems: string[] });
    expect(logged).toHaveLength(1);
    expect(logged[0]!.problems).toEqual(["/ok must be boolean"]);
  });
});
