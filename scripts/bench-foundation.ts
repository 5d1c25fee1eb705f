/**
 * HTTP benchmarks with autocannon against the production build.
 *   npm run build && npm run bench:foundation
 * Starts the server on a free port with a fresh DATA_DIR, creates a user and
 * measures each endpoint for a few seconds. Results go to stdout as a
 * Markdown table (copied into docs/benchmarks.md).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort, waitForOk } from "./bench/harness";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-bench-"));
const server = spawn(process.execPath, ["build/server.js"], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, APP_URL: base },
  stdio: "inherit",
});
await waitForOk(`${base}/api/health`);

const reg = await fetch(`${base}/api/auth/register`, {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify({ name: "Bench", email: "bench@example.com", password: "Bench-Mark-123" }),
});
const cookie = reg.headers.getSetCookie()[0]!.split(";")[0]!;

const targets: { name: string; path: string; headers?: Record<string, string> }[] = [
  { name: "GET /api/health", path: "/api/health" },
  { name: "GET /api/auth/me (session)", path: "/api/auth/me", headers: { cookie } },
  { name: "GET /api/admin/rest-api-keys (session)", path: "/api/admin/rest-api-keys", headers: { cookie } },
  { name: "GET /api/openapi.json", path: "/api/openapi.json" },
  { name: "GET /sign-in (HTML)", path: "/sign-in" },
];

const rows: string[] = [];
for (const t of targets) {
  const result = await autocannon({ url: base + t.path, headers: t.headers, connections: CONNECTIONS, duration: DURATION });
  const non2xx = result.non2xx;
  rows.push(`| ${t.name} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p99} | ${non2xx} |`);
}
console.log(`\n${CONNECTIONS} connections, ${DURATION} s each, ${os.cpus().length} cores, Node ${process.version}\n`);
console.log("| endpoint | req/s | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|");
console.log(rows.join("\n"));
server.kill("SIGTERM");
await new Promise((r) => server.once("exit", r));
fs.rmSync(dataDir, { recursive: true, force: true });
