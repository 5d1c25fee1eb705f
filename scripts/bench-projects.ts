/**
 * The project list and keyword search at 10,000 projects (docs/benchmarks.md,
 * "10,000 projects (issue 3)"). Builds nothing: run `npm run build` first.
 *
 *   npm run build && npx tsx scripts/bench-projects.ts
 *
 * 1. Creates a fresh DATA_DIR, migrates it and seeds one enterprise
 *    organization with BENCH_PROJECTS (10,000) projects (scripts/seed-projects.ts).
 * 2. In this process, calls the real domain functions (listProjects,
 *    searchProjects) against that database, records the SQL they prepare and
 *    prints its EXPLAIN QUERY PLAN (read with better-sqlite3 directly) and the
 *    median in-process latency of each query.
 * 3. Starts the production server on a free port (like scripts/bench.ts),
 *    signs in as a seeded member and loads every endpoint with autocannon
 *    (BENCH_CONNECTIONS=10 for BENCH_SECONDS=5 each), then the search
 *    endpoints once more with a single connection. Prints Markdown tables.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort, waitForOk } from "./bench/harness";
import SQLite from "better-sqlite3";
import { createDb, migrateToLatest } from "../db/client";
import { seedProjects } from "./seed-projects";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 10_000);

// Words of the seeded text: "checkout" is in ~10% of names, "stripe" in ~9%
// of projects, "improve" in two thirds of them (the worst case for ranking).
const LIST_TARGETS: { name: string; query: string }[] = [
  { name: "default (updatedAt desc)", query: "" },
  { name: "sortBy=name&sortOrder=asc", query: "sortBy=name&sortOrder=asc" },
  { name: "sortBy=priority", query: "sortBy=priority" },
  { name: "sortBy=status", query: "sortBy=status" },
  { name: "status=IN_REVIEW", query: "status=IN_REVIEW" },
  { name: "priority=high,urgent", query: "priority=high,urgent" },
  { name: "assignedToMe=true", query: "assignedToMe=true" },
  { name: "search=checkout", query: "search=checkout" },
  { name: "search=mobile&status=DRAFT&sortBy=createdAt", query: "search=mobile&status=DRAFT&sortBy=createdAt" },
  { name: "offset=5000", query: "offset=5000" },
];
const SEARCH_TARGETS: { name: string; query: string }[] = [
  { name: "q=stripe", query: "q=stripe&mode=keyword" },
  { name: "q=checkout conv (prefix)", query: "q=checkout%20conv&mode=keyword" },
  { name: "q=improve (in 2/3 of projects)", query: "q=improve&mode=keyword" },
];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

// ---------------------------------------------------------------------------
// 1. Seed

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-bench-projects-"));
const dbFile = path.join(dataDir, "app.db");
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "production";
const seedDb = createDb(dbFile).db;
await migrateToLatest(seedDb);
const seeded = await seedProjects(seedDb, { count: PROJECTS });
await seedDb.destroy();
const { member, orgId, password } = seeded;
console.log(
  `Seeded ${seeded.projects} projects (${seeded.prds} with a PRD) in ${seeded.ms} ms; ` + `database ${(fs.statSync(dbFile).size / 1e6).toFixed(0)} MB`,
);

// ---------------------------------------------------------------------------
// 2. Query plans and in-process latency of the real domain functions

type Captured = { sql: string; params: unknown[] };
let captured: Captured[] = [];
const proto = SQLite.prototype as unknown as { prepare: (sql: string) => SQLite.Statement };
const prepare = proto.prepare;
proto.prepare = function (this: SQLite.Database, sql: string) {
  const stmt = prepare.call(this, sql);
  for (const method of ["all", "get", "run"] as const) {
    const original = stmt[method] as (...args: unknown[]) => unknown;
    (stmt as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      captured.push({ sql, params: (Array.isArray(args[0]) ? args[0] : args) as unknown[] });
      return original.apply(stmt, args);
    };
  }
  return stmt;
};

const { listProjects } = await import("~/domain/projects/list.server");
const { listProjectsSchema } = await import("~/domain/projects/projects.schema");
const { searchProjects } = await import("~/domain/search/search-modes.server");
const { searchQuerySchema } = await import("~/domain/search/search.schema");
const { closeDb } = await import("~/db.server");
type Actor = import("~/domain/actor").Actor;

const actor: Actor = {
  user: { id: member.id, email: member.email, name: member.name, emailVerified: true, timezone: "UTC" },
  org: { id: orgId, name: "bench", plan: "enterprise" },
  role: "member",
  via: "session",
  isSuperadmin: false,
  ip: null,
  userAgent: null,
};
const queryObject = (query: string) => Object.fromEntries(new URLSearchParams(query));

const reader = new SQLite(dbFile, { readonly: true });
function plan({ sql, params }: Captured) {
  const bound = params.map((p) => (typeof p === "boolean" ? Number(p) : p));
  return reader
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...bound)
    .map((row) => `  ${(row as { detail: string }).detail}`)
    .join("\n");
}

const inProcess: string[] = [];
async function profile(label: string, run: () => Promise<{ total: number }>) {
  captured = [];
  const first = await run();
  const statements = captured.filter((c) => !/temp\.|^\s*(CREATE|INSERT)/i.test(c.sql));
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  inProcess.push(`| ${label} | ${first.total} | ${median(times).toFixed(1)} |`);
  console.log(`\n### ${label}\n`);
  for (const s of statements) console.log(`${s.sql.replace(/\s+/g, " ").trim()}\n${plan(s)}\n`);
}

console.log("\n## Query plans (EXPLAIN QUERY PLAN of the SQL the domain functions prepare)");
for (const t of LIST_TARGETS) {
  const q = listProjectsSchema.parse(queryObject(t.query));
  await profile(`GET /api/projects ${t.name}`, () => listProjects(actor, q));
}
for (const t of SEARCH_TARGETS) {
  const q = searchQuerySchema.parse(queryObject(t.query));
  await profile(`GET /api/search ${t.name}`, () => searchProjects(actor, q));
}
proto.prepare = prepare;
reader.close();
await closeDb();

// ---------------------------------------------------------------------------
// 3. HTTP load against the production server

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ["build/server.js"], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, APP_URL: base },
  stdio: "inherit",
});
try {
  await waitForOk(`${base}/api/health`);

  const signIn = await fetch(`${base}/api/auth/sign-in`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: member.email, password }),
  });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers.getSetCookie()[0]!.split(";")[0]!;

  const targets = [
    ...LIST_TARGETS.map((t) => ({ name: `GET /api/projects ${t.name}`, path: `/api/projects${t.query ? `?${t.query}` : ""}` })),
    ...SEARCH_TARGETS.map((t) => ({ name: `GET /api/search ${t.name}`, path: `/api/search?${t.query}` })),
  ];
  const rows: string[] = [];
  for (const t of targets) {
    const check = await fetch(base + t.path, { headers: { cookie } });
    const body = (await check.json()) as { total?: number };
    if (!check.ok) throw new Error(`${t.path}: ${check.status} ${JSON.stringify(body)}`);
    const result = await autocannon({ url: base + t.path, headers: { cookie }, connections: CONNECTIONS, duration: DURATION });
    rows.push(`| ${t.name} | ${body.total} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} |`);
  }
  const single: string[] = [];
  // One client at a time: the latency of a single request, without queueing.
  for (const t of targets) {
    const result = await autocannon({ url: base + t.path, headers: { cookie }, connections: 1, duration: DURATION });
    single.push(`| ${t.name} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} |`);
  }

  console.log(`\n## HTTP: ${PROJECTS} projects, ${CONNECTIONS} connections, ${DURATION} s each, ${os.cpus().length} cores, Node ${process.version}\n`);
  console.log("| endpoint | total | req/s | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|---|");
  console.log(rows.join("\n"));
  console.log(`\n## HTTP: one connection (single-request latency), ${DURATION} s each\n`);
  console.log("| endpoint | req/s | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|");
  console.log(single.join("\n"));
  console.log("\n## In process: median of 15 calls of the domain function (no HTTP)\n");
  console.log("| query | total | median ms |\n|---|---|---|");
  console.log(inProcess.join("\n"));
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
