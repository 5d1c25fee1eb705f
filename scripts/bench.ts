/**
 * The read path against the bare runtime (docs/benchmarks.md, "npm run bench").
 *
 *   npm run bench        (builds first when the build is missing or stale)
 *
 * 1. Seeds a fresh DATA_DIR with one Enterprise organization of 10,000
 *    projects (scripts/seed-projects.ts) and gives one project a PRD of
 *    2,000 words.
 * 2. Starts the production app and, beside it, a bare node:http +
 *    better-sqlite3 server over the same database (scripts/bench/bare-server.ts)
 *    that answers the same list page (with total) and the same PRD read with
 *    the same JSON — checked, before any load, to be equal.
 * 3. Loads both alternately with autocannon (API-key authentication on the
 *    app, BENCH_CONNECTIONS=10 keep-alive connections, BENCH_SECONDS=8 a run,
 *    BENCH_ROUNDS=2 rounds) and reports req/s, p50, p99 and the ratio.
 * 4. Loads every list filter and sort, name search and /api/search on the app.
 * 5. Peak RSS of the app under that load; then cold start: `npm start` with the
 *    existing build and data, to the first 200 from /api/health (median of 3).
 * 6. The workspace grown through the API instead (scripts/bench/grown.ts):
 *    projects created with POST /api/projects on the running app, reads and
 *    event-loop delay while the event backlog drains, a burst of events, the
 *    ratio to the bare server on those rows.
 * 7. Exports (scripts/bench/memory.ts): peak RSS and event-loop delay while
 *    five exports of a 30,000-word PRD run beside the list, then a bulk
 *    export of 20 such PRDs.
 * 8. AI streams (scripts/bench/streams.ts): latency the app adds to a
 *    provider's chunks, then 500 streams at once and memory per stream.
 * 9. Writes the tables to docs/benchmarks.md (between the `npm-run-bench`
 *    markers) with the date and the machine, and prints them.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { createDb, migrateToLatest } from "../db/client";
import {
  freePort,
  load,
  type Load,
  machine,
  median,
  peakRssMb,
  signInCookie,
  spawnForUrl,
  spawnGroup,
  stopGroup,
  waitForClosed,
  waitForOk,
  writeBlock,
} from "./bench/harness";
import { coldSearches } from "./bench/cold-search";
import { runGrownPhase } from "./bench/grown";
import { runMemoryPhase } from "./bench/memory";
import { runStreamsPhase } from "./bench/streams";
import { seedProjects } from "./seed-projects";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 10_000);
const DOCS = process.env.BENCH_DOCS ?? "docs/benchmarks.md";

// ---------------------------------------------------------------- 0. an up-to-date production build
if (spawnSync(process.execPath, ["scripts/start.mjs", "--build-only"], { stdio: "inherit" }).status !== 0) process.exit(1);

// ---------------------------------------------------------------- 1. seed
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-bench-"));
const dbFile = path.join(dataDir, "app.db");
const seedDb = createDb(dbFile).db;
await migrateToLatest(seedDb);
const seeded = await seedProjects(seedDb, { count: PROJECTS });
await seedDb.destroy();
const sqlite = new SQLite(dbFile);
const words = "The checkout team measures conversion weekly and reviews every failed payment with support before the next release".split(" ");
const longPrd = `# Checkout redesign\n\n${Array.from({ length: 100 }, (_, i) => `## Part ${i + 1}\n\n${Array.from({ length: 20 }, (_, j) => words[(i + j) % words.length]).join(" ")}.`).join("\n\n")}`;
const prdProject = (sqlite.prepare("select projectId from prds limit 1").get() as { projectId: string }).projectId;
sqlite.prepare("update prds set content = ? where projectId = ?").run(longPrd, prdProject);
sqlite.close();
const owner = seeded.users.find((u) => u.role === "owner")!;
console.log(`Seeded ${seeded.projects} projects in ${seeded.ms} ms; PRD of ${longPrd.split(/\s+/).length} words on ${prdProject}`);

// ---------------------------------------------------------------- 2. servers
/** The production server, as `npm run serve` starts it. */
const SERVE = ["--max-semi-space-size=8", "--max-old-space-size=384", "build/server.js"];
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, APP_URL: base };
const app = spawnGroup(process.execPath, SERVE, env, false);
const bare = await spawnForUrl(["--import", "tsx", "scripts/bench/bare-server.ts", dbFile, seeded.orgId], env, "BARE");
try {
  await waitForOk(`${base}/api/health`);
  const cookie = await signInCookie(base, owner.email, seeded.password);
  /** A fresh Enterprise API key (100,000 requests a minute) for each run, so no run is rate-limited. */
  const apiKey = async () => {
    const res = await fetch(`${base}/api/admin/rest-api-keys`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base, cookie },
      body: JSON.stringify({ name: `bench ${Date.now()}`, rateLimit: 100_000 }),
    });
    if (res.status !== 201) throw new Error(`API key: ${res.status} ${await res.text()}`);
    return { Authorization: `Bearer ${((await res.json()) as { apiKey: { key: string } }).apiKey.key}` };
  };

  // The same JSON from both, or the comparison means nothing.
  const paths = { list: "/api/projects?limit=50", prd: `/api/projects/${prdProject}/prd` };
  const auth = await apiKey();
  for (const p of Object.values(paths)) {
    const [a, b] = await Promise.all([fetch(base + p, { headers: auth }), fetch(bare.url + p)]);
    const [ja, jb] = [await a.text(), await b.text()];
    if (a.status !== 200 || ja !== jb) throw new Error(`${p}: the app and the bare server disagree\napp:  ${ja.slice(0, 300)}\nbare: ${jb.slice(0, 300)}`);
  }

  // ---------------------------------------------------------------- 3. ratio runs, alternating
  const runs: Record<string, { app: Load[]; bare: Load[] }> = { list: { app: [], bare: [] }, prd: { app: [], bare: [] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, p] of Object.entries(paths)) {
      runs[name]!.bare.push(await load(bare.url + p, {}, CONNECTIONS, SECONDS));
      runs[name]!.app.push(await load(base + p, await apiKey(), CONNECTIONS, SECONDS));
    }
  }
  const avg = (xs: Load[]) => ({
    rps: xs.reduce((s, x) => s + x.rps, 0) / xs.length,
    p50: median(xs.map((x) => x.p50)),
    p99: Math.max(...xs.map((x) => x.p99)),
    failed: xs.reduce((s, x) => s + x.non2xx + x.errors, 0),
  });
  const ratioRows = Object.entries(runs).map(([name, r]) => {
    const a = avg(r.app);
    const b = avg(r.bare);
    const label = name === "list" ? "`GET /api/projects?limit=50` (page + total)" : "`GET /api/projects/{id}/prd` (2,000 words)";
    return `| ${label} | ${a.rps.toFixed(0)} req/s, p50 ${a.p50} ms, p99 ${a.p99} ms | ${b.rps.toFixed(0)} req/s, p50 ${b.p50} ms, p99 ${b.p99} ms | **${(a.rps / b.rps).toFixed(2)}×** | ${a.failed + b.failed} |`;
  });

  // ---------------------------------------------------------------- 4. every list variant and search on the app
  const variants = [
    "",
    "sortBy=name&sortOrder=asc",
    "sortBy=createdAt",
    "sortBy=priority",
    "sortBy=status",
    "status=IN_REVIEW",
    "priority=high,urgent",
    "assignedToMe=true",
    "search=checkout",
    "search=mobile&status=DRAFT&sortBy=createdAt",
    "offset=5000",
  ].map((q) => `/api/projects${q ? `?${q}` : ""}`);
  const searches = ["q=stripe", "q=checkout%20conv", "q=improve"].map((q) => `/api/search?${q}&mode=keyword`);
  const variantRows: string[] = [];
  for (const p of [...variants, ...searches]) {
    const r = await load(base + p, await apiKey(), CONNECTIONS, Math.max(3, Math.round(SECONDS / 2)));
    variantRows.push(`| \`${p}\` | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} |`);
  }
  // The same searches with a different page on every request: no page comes from the cache, the ranking does.
  let n = 0;
  for (const p of searches) {
    const r = await load(base + p, await apiKey(), CONNECTIONS, Math.max(3, Math.round(SECONDS / 2)), (path) => `${path}&limit=1&offset=${n++ % 5000}`);
    variantRows.push(
      `| \`${p}&limit=1&offset=<a new one per request>\` (a new page each time) | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} |`,
    );
  }
  // Truly cold: a project changes before every search, so the matches are ranked afresh each time.
  const coldRows: string[] = [];
  for (const p of searches) {
    for (const clients of [1, CONNECTIONS]) {
      const r = await coldSearches(base, await apiKey(), p, prdProject, clients, Math.max(3, Math.round(SECONDS / 2)));
      coldRows.push(`| \`${p}\` | ${clients} | ${r.searches} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${r.failed} |`);
    }
  }
  const rss = peakRssMb(app.pid!);
  await stopGroup(app);
  await waitForClosed(`${base}/api/health`);

  // ---------------------------------------------------------------- 5. cold start with the existing build and data
  const starts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const since = performance.now();
    const child = spawnGroup("npm", ["start"], env);
    starts.push(await waitForOk(`${base}/api/health`, since));
    await stopGroup(child);
    await waitForClosed(`${base}/api/health`);
  }

  // ---------------------------------------------------------------- 6. the workspace grown through the API
  const grown = await runGrownPhase({ projects: PROJECTS, connections: CONNECTIONS, seconds: SECONDS });

  // ---------------------------------------------------------------- 7. memory and the event loop under exports
  const exportsPhase = await runMemoryPhase({ rounds: 4, bulk: 20 });

  // ---------------------------------------------------------------- 8. AI streams: latency added, 500 at once, memory per stream
  const streamsPhase = await runStreamsPhase({ chunks: 40, paceMs: 25, samples: 20, concurrent: 500 });

  // ---------------------------------------------------------------- 9. report
  const date = new Date().toISOString().slice(0, 10);
  const report = `### ${date} — \`npm run bench\` (written by scripts/bench.ts)

${machine()}. ${seeded.projects.toLocaleString("en")} projects in one Enterprise organization; production build; API-key
authentication; ${CONNECTIONS} keep-alive connections; ${ROUNDS} alternating rounds of ${SECONDS} s per server and request
(req/s averaged, p50 median, p99 worst). The bare server is node:http + better-sqlite3 running the same SQL and
returning byte-identical JSON (checked before the load).

| request | app | bare server | ratio | non-2xx |
|---|---|---|---|---|
${ratioRows.join("\n")}

Every list variant and keyword search on the app (${CONNECTIONS} connections, ${Math.max(3, Math.round(SECONDS / 2))} s each). Keyword search results are
cached until a project, a PRD's content or a collaborator changes (\`app/utils/stamped-cache.server.ts\`, \`searchStamp\`); the rows
marked "a new page each time" ask for a different page on every request (most of them past the first 1,000 matches), so only
the ranking, kept in slices of 1,000, is shared:

| request | req/s | p50 ms | p99 ms | non-2xx |
|---|---|---|---|---|
${variantRows.join("\n")}

Keyword search with nothing cached: each client changes a project (\`PATCH /api/projects/{id}\`) before every search, so
the server ranks every match afresh (the search cache lasts until a project, a PRD's content or a collaborator changes;
comments, sessions and background events leave it). Only the searches are timed; with ${CONNECTIONS} clients a search may
share the ranking another client's search just made:

| search | clients | searches | p50 ms | p99 ms | max ms | failed |
|---|---|---|---|---|---|---|
${coldRows.join("\n")}

- Peak RSS of the app over all of the above: **${rss.toFixed(0)} MB**.
- Cold start, \`npm start\` with an up-to-date build and this database → first 200 from \`/api/health\`:
  **${median(starts).toFixed(0)} ms** (median of ${starts.map((s) => s.toFixed(0)).join(", ")} ms).

#### The same workspace grown through the API

${grown}

#### Exports: memory and the event loop

${exportsPhase}

#### AI streams: 500 at once

${streamsPhase}`;
  writeBlock(DOCS, "npm-run-bench", report);
  console.log(`\n${report}\n\n(written to ${DOCS})`);
} finally {
  await stopGroup(app);
  await stopGroup(bare.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
