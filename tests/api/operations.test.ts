import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { enqueue } from "~/jobs/queue.server";
import { logger, setLogLevel, setLogSink } from "~/utils/log.server";
import { setEnv } from "../support/ai";
import { serveApp } from "../support/serve";
import { signedUpClient, TestClient } from "../support/client";
import { fillTheDisk, freeTheDisk } from "../support/disk";

/**
 * Operations: request ids and JSON logs, /api/health's checks and
 * /metrics, through the same node handler server.ts runs (on a real socket).
 */

const TOKEN = "metrics-token-0123456789abcdef";
const lines: Record<string, any>[] = [];
let base: string;
let closed: http.Server;
let disabled: string;

async function serve(metricsToken: string | undefined) {
  const { server, url } = await serveApp({ metricsToken });
  return { server, url };
}

let other: http.Server;
beforeAll(async () => {
  setLogSink((line) => lines.push(JSON.parse(line)));
  setLogLevel("info");
  ({ server: closed, url: base } = await serve(TOKEN));
  ({ server: other, url: disabled } = await serve(undefined));
});
afterAll(async () => {
  setLogSink();
  setLogLevel();
  setEnv({ HEALTH_MAX_QUEUE_LAG_SECONDS: undefined, HEALTH_MIN_FREE_BYTES: undefined });
  await new Promise((r) => closed.close(r));
  await new Promise((r) => other.close(r));
});

const accessLine = (id: string) => lines.find((l) => l.msg === "request" && l.requestId === id);

describe("request ids and logs", () => {
  it("generates an id for an API response, and logs one JSON access line with it", async () => {
    const res = await fetch(`${base}/api/health?verbose=1`);
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await res.text();
    await expect.poll(() => accessLine(id!)).toBeTruthy();
    expect(accessLine(id!)).toMatchObject({
      level: "info",
      time: expect.any(String),
      method: "GET",
      path: "/api/health",
      route: "/api/health",
      status: 200,
      durationMs: expect.any(Number),
      bytes: expect.any(Number),
    });
  });

  it("keeps a sane incoming X-Request-Id on pages and API responses, replaces an unsafe one", async () => {
    const page = await fetch(`${base}/sign-in`, { headers: { "X-Request-Id": "edge-abc.123_X" } });
    expect(page.headers.get("x-request-id")).toBe("edge-abc.123_X");
    await page.text();
    await expect.poll(() => accessLine("edge-abc.123_X")).toMatchObject({ route: "page", path: "/sign-in" });

    const api = await fetch(`${base}/api/projects`, { headers: { "X-Request-Id": "proxy-id-1" } });
    expect(api.status).toBe(401);
    expect(api.headers.get("x-request-id")).toBe("proxy-id-1");
    await api.text();

    const bad = await fetch(`${base}/api/health`, { headers: { "X-Request-Id": "x".repeat(101) } });
    expect(bad.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const evil = await fetch(`${base}/api/health`, { headers: { "X-Request-Id": 'a b"}' } });
    expect(evil.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("puts the request id on lines logged by code running for the request", async () => {
    const headers = { "Content-Type": "application/json", Origin: base };
    const registered = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers,
      body: JSON.stringify({ email: `ops-${Date.now()}@example.com`, password: "Correct-horse-9", name: "Ops" }),
    });
    expect(registered.status).toBe(201);
    const cookie = registered.headers.get("set-cookie")!.split(";")[0]!;
    // (This file's log sink keeps every line; none reaches console.error.)
    fillTheDisk();
    try {
      let refused: Response | null = null;
      for (let i = 0; i < 500 && !refused; i++) {
        const res = await fetch(`${base}/api/projects`, {
          method: "POST",
          // An unsafe incoming id: the server makes its own, and the code serving the request must see that one.
          headers: { ...headers, Cookie: cookie, "X-Request-Id": "not a safe id" },
          body: JSON.stringify({ name: `Filler ${i}`, description: "Long enough to need new pages. ".repeat(160).slice(0, 5000) }),
        });
        await res.text();
        if (res.status !== 201) refused = res;
      }
      expect(refused?.status).toBe(503);
      const id = refused!.headers.get("x-request-id")!;
      // The domain's line about the refused write names the request, as its access line does.
      expect(lines.find((l) => l.msg.includes("disk full"))).toMatchObject({ level: "error", requestId: id });
      await expect.poll(() => accessLine(id)).toMatchObject({ status: 503, route: "/api/projects" });
    } finally {
      freeTheDisk();
    }
  });

  it("writes fields as given, errors as message and stack", () => {
    logger.warn("something odd", { requestId: "domain-42", projectId: "p1", error: new Error("boom") });
    expect(lines.find((l) => l.msg === "something odd")).toMatchObject({
      level: "warn",
      requestId: "domain-42",
      projectId: "p1",
      error: "boom",
      stack: expect.stringContaining("boom"),
    });
  });

  it("honours the level", () => {
    setLogLevel("warn");
    logger.info("quiet please");
    setLogLevel("info");
    expect(lines.some((l) => l.msg === "quiet please")).toBe(false);
  });
});

describe("GET /api/health", () => {
  const client = new TestClient();

  it("reports the database, the job queue and the disk", async () => {
    const res = await client.get("/api/health");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)[0]).toBe("status");
    expect(res.body).toEqual({
      status: "ok",
      checks: {
        database: { status: "ok", latencyMs: expect.any(Number) },
        jobs: { status: "ok", queued: expect.any(Number), lagSeconds: expect.any(Number), slow: [], queues: expect.any(Object) },
        disk: { status: "ok", freeBytes: expect.any(Number), totalBytes: expect.any(Number) },
      },
    });
    expect(res.body.checks.disk.freeBytes).toBeGreaterThan(0);
  });

  it("is degraded (still 200) when the oldest due job waits too long", async () => {
    // Only this test's job is queued (registrations above queued their e-mails and events).
    await db.deleteFrom("jobs").execute();
    await db.updateTable("events").set({ processedAt: new Date().toISOString() }).where("processedAt", "is", null).execute();
    await enqueue(db, "ops.test-never-run", {}, { runAt: new Date(Date.now() - 3600_000) });
    setEnv({ HEALTH_MAX_QUEUE_LAG_SECONDS: "600" });
    const res = await client.get("/api/health");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("degraded");
    expect(res.body.checks.jobs).toMatchObject({ status: "unhealthy", queued: 1, slow: ["other"] });
    expect(res.body.checks.jobs.lagSeconds).toBeGreaterThanOrEqual(3600);
    expect(res.body.checks.disk.status).toBe("ok");

    setEnv({ HEALTH_MAX_QUEUE_LAG_SECONDS: "7200" });
    expect((await client.get("/api/health")).body.status).toBe("ok");
  });

  it("is degraded when the disk has less free space than configured", async () => {
    setEnv({ HEALTH_MIN_FREE_BYTES: String(Number.MAX_SAFE_INTEGER) });
    const res = await client.get("/api/health");
    expect(res.body.status).toBe("degraded");
    expect(res.body.checks.disk.status).toBe("unhealthy");
    expect(res.body.checks.database.status).toBe("ok");
    setEnv({ HEALTH_MIN_FREE_BYTES: undefined });
  });
});

describe("GET /metrics", () => {
  it("answers 404 when no METRICS_TOKEN is configured", async () => {
    const res = await fetch(`${disabled}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses without the token or with a wrong one (401 envelope)", async () => {
    for (const headers of [{}, { Authorization: "Bearer wrong-token" }, { Authorization: TOKEN }] as Record<string, string>[]) {
      const res = await fetch(`${base}/metrics`, { headers });
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body).toMatchObject({ code: "UNAUTHORIZED", error: expect.any(String) });
    }
  });

  it("serves Prometheus text with the token: requests by route pattern, queue gauges, AI and SSE metrics", async () => {
    await (await fetch(`${base}/api/projects/some-project-id`)).text();
    await (await fetch(`${base}/api/health`)).text();
    const res = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/health",status="200"\} \d+/);
    expect(text).toContain('route="/api/projects/{projectId}",status="401"');
    expect(text).not.toContain("some-project-id");
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/health"}');
    expect(text).toMatch(/route="page",status="200"/);
    expect(text).toMatch(/jobs_queue_depth \d+/);
    expect(text).toMatch(/jobs_queue_lag_seconds \d+/);
    expect(text).toContain("# TYPE ai_tokens_total counter");
    expect(text).toMatch(/sse_streams_open \d+/);
    expect(text).toContain("process_cpu_user_seconds_total");
  });

  it("counts AI tokens where calls are recorded and SSE streams while they are open", async () => {
    const { registry } = await import("~/http/server/metrics.server");
    const { recordCall } = await import("~/ai/usage.server");
    const { sseResponse } = await import("~/http/api/sse.server");
    const value = async (name: string) => (await registry.getSingleMetricAsString(name)).split("\n").filter((l) => !l.startsWith("#"));
    // The counters belong to the process, which may have served other test files: compare with before.
    const tokens = async (direction: string) => {
      const line = (await value("ai_tokens_total")).find((l) => l.startsWith(`ai_tokens_total{provider="provider_a",direction="${direction}"} `));
      return line ? Number(line.split(" ").at(-1)) : 0;
    };
    const [inputBefore, outputBefore] = [await tokens("input"), await tokens("output")];
    const openBefore = Number((await value("sse_streams_open"))[0]?.split(" ").at(-1) ?? 0);

    const { organization } = await signedUpClient();
    await recordCall({
      orgId: organization.id,
      userId: null,
      projectId: null,
      task: "test",
      provider: "provider_a",
      model: "m",
      keySource: "platform",
      usage: { inputTokens: 12, outputTokens: 30 },
      outcome: "ok",
      startedAt: performance.now(),
    });
    expect([(await tokens("input")) - inputBefore, (await tokens("output")) - outputBefore]).toEqual([12, 30]);

    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const response = sseResponse(new Request("http://x/"), async function* () {
      await gate;
      yield { type: "done" as const };
    });
    const reading = response.text();
    await expect.poll(() => value("sse_streams_open")).toEqual([`sse_streams_open ${openBefore + 1}`]);
    release();
    await reading;
    expect(await value("sse_streams_open")).toEqual([`sse_streams_open ${openBefore}`]);
  });
});
