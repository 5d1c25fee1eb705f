import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { DURATION_BUCKETS, RequestStats } from "~/http/server/request-stats.server";

/**
 * Our request counters are kept outside prom-client for speed; scraped, they
 * must read exactly as prom-client's own Counter and Histogram would for the
 * same observations.
 */

const OBSERVATIONS: [string, string, number, number][] = [
  ["GET", "/api/health", 200, 0.001],
  ["GET", "/api/health", 200, 0.005], // on a bound: counted in that bucket (le)
  ["GET", "/api/health", 503, 0.3],
  ["GET", "/api/projects/{projectId}", 401, 0.02],
  ["POST", "/api/projects", 201, 45], // above the largest bound: only +Inf
  ["GET", "page", 200, 0.07],
];

function reference() {
  const registry = new Registry();
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from request to the end of the response, by method and route pattern",
    labelNames: ["method", "route"],
    buckets: [...DURATION_BUCKETS],
    registers: [registry],
  });
  for (const [method, route, status, seconds] of OBSERVATIONS) {
    requests.inc({ method, route, status: String(status) });
    duration.observe({ method, route }, seconds);
  }
  return registry;
}

function ours() {
  const registry = new Registry();
  const stats = new RequestStats();
  for (const metric of stats.metrics()) registry.registerMetric(metric as never);
  for (const [method, route, status, seconds] of OBSERVATIONS) stats.observe(method, route, status, seconds);
  return { registry, stats };
}

const sorted = (text: string) => text.split("\n").filter(Boolean).sort();

describe("request stats", () => {
  it("scrape exactly as prom-client's Counter and Histogram would", async () => {
    const { registry } = ours();
    expect(sorted(await registry.metrics())).toEqual(sorted(await reference().metrics()));
    const text = await registry.metrics();
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/health"} 2');
    expect(text).toContain('http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/projects"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{le="30",method="POST",route="/api/projects"} 0');
    expect(text).toContain('http_requests_total{method="GET",route="/api/health",status="503"} 1');
  });

  it("reset with the registry", async () => {
    const { registry, stats } = ours();
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain("route=");
    stats.observe("GET", "/api/health", 200, 0.002);
    expect(await registry.metrics()).toContain('http_requests_total{method="GET",route="/api/health",status="200"} 1');
  });
});
