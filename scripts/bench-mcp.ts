/**
 * Agent access over MCP at 10,000 projects (docs/benchmarks.md, "MCP"):
 * each MCP tool call against the REST call it mirrors, and both against a
 * bare baseline measured in the same run (`GET /api/health`). MCP at /mcp is
 * stateless (a server and transport per request, docs/mcp.md), so the
 * difference between a tool call and its REST twin is what that costs.
 * Builds nothing: run `npm run build` first.
 *
 *   npm run build && npm run bench:mcp
 *
 * Seeds a fresh DATA_DIR with scripts/seed-projects.ts (10,000 projects, 60 %
 * with a PRD), mints a REST API key for the owner, starts the production
 * server and loads each request with autocannon (BENCH_CONNECTIONS=10 for
 * BENCH_SECONDS=5), then with one connection. Prints a Markdown table; with
 * BENCH_WRITE=1 also writes it into docs/benchmarks.md.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { createDb, migrateToLatest } from "../db/client";
import { freePort, machine, productionEnv, spawnGroup, stopGroup, waitForOk, writeBlock, signInCookie } from "./bench/harness";
import { seedProjects } from "./seed-projects";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 10_000);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-bench-mcp-"));
const { db } = createDb(path.join(dataDir, "app.db"));
await migrateToLatest(db);
const seeded = await seedProjects(db, { count: PROJECTS });
const withPrd = await db.selectFrom("prds").select("projectId").limit(1).executeTakeFirstOrThrow();
await db.destroy();
const owner = seeded.users.find((u) => u.role === "owner")!;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
// The key gets the highest per-minute limit a key may have (Enterprise), so the run is not cut short.
const server = spawnGroup(process.execPath, ["build/server.js"], productionEnv(port, dataDir, { DEFAULT_PLAN: "enterprise" }));

interface Target {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
}

const rpc = (method: string, params: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
const tool = (name: string, args: Record<string, unknown>) => rpc("tools/call", { name, arguments: args });

async function run(t: Target, headers: Record<string, string>, connections: number) {
  const r = await autocannon({ url: base + t.path, method: t.method, headers, body: t.body, connections, duration: DURATION });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

try {
  await waitForOk(`${base}/api/health`);
  const cookie = await signInCookie(base, owner.email, seeded.password);
  const minted = await fetch(`${base}/api/admin/rest-api-keys`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base, cookie },
    body: JSON.stringify({ name: "bench", rateLimit: 100_000 }),
  });
  if (!minted.ok) throw new Error(`key: ${minted.status} ${await minted.text()}`);
  const key = ((await minted.json()) as { apiKey: { key: string } }).apiKey.key;
  const rest = { Authorization: `Bearer ${key}` };
  const mcp = { ...rest, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  const projectId = withPrd.projectId;

  const pairs: { target: Target; headers: Record<string, string> }[] = [
    { target: { name: "GET /api/health (baseline)", method: "GET", path: "/api/health" }, headers: {} },
    { target: { name: "REST GET /api/projects/{id}/prd", method: "GET", path: `/api/projects/${projectId}/prd` }, headers: rest },
    { target: { name: "MCP get_prd", method: "POST", path: "/mcp", body: tool("get_prd", { projectId }) }, headers: mcp },
    { target: { name: "REST GET /api/projects?search=checkout", method: "GET", path: "/api/projects?search=checkout" }, headers: rest },
    { target: { name: "MCP search_projects checkout", method: "POST", path: "/mcp", body: tool("search_projects", { query: "checkout" }) }, headers: mcp },
    { target: { name: "MCP tools/list", method: "POST", path: "/mcp", body: rpc("tools/list", {}) }, headers: mcp },
  ];
  // Each works before it is measured.
  for (const { target, headers } of pairs) {
    const res = await fetch(base + target.path, { method: target.method, headers, body: target.body });
    const text = await res.text();
    if (!res.ok || text.includes('"isError":true')) throw new Error(`${target.name}: ${res.status} ${text.slice(0, 300)}`);
  }
  const rows: string[] = [];
  for (const { target, headers } of pairs) {
    const many = await run(target, headers, CONNECTIONS);
    const one = await run(target, headers, 1);
    rows.push(`| ${target.name} | ${many.rps.toFixed(0)} | ${many.p50} | ${many.p99} | ${one.p50} | ${one.p99} | ${many.non2xx + one.non2xx} |`);
  }
  const table = [
    `${PROJECTS.toLocaleString("en")} projects; the owner's REST API key; ${machine()}.`,
    "",
    `| request | req/s (${CONNECTIONS} conn.) | p50 ms | p99 ms | p50 ms (1 conn.) | p99 ms (1 conn.) | non-2xx |`,
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
  console.log(`\n${table}\n`);
  if (process.env.BENCH_WRITE) writeBlock("docs/benchmarks.md", "bench-mcp", table);
} finally {
  await stopGroup(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
