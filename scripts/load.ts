/**
 * Load test: a realistic mix against the production server.
 *
 *   npm run load          (builds first when the build is missing or stale)
 *
 * 1. Seeds a fresh DATA_DIR with one Enterprise organization of LOAD_PROJECTS
 *    (2,000) projects, 60% with a PRD (scripts/seed-projects.ts), and gives
 *    each of its five editors (owner, admin, three members) an API key.
 * 2. Starts a loopback OpenAI-compatible server (tests/mocks/openai-server.ts)
 *    that streams its answers in LOAD_CHUNKS (40) chunks LOAD_PACE_MS (25) ms
 *    apart, like a real model, and the production server
 *    (`node --max-semi-space-size=8 --max-old-space-size=384 build/server.js`) pointing at it.
 * 3. For LOAD_SECONDS (60): one autocannon instance per operation, all at once
 *    (scripts/load/mix.ts: list, get project, get PRD, update PRD with
 *    If-Match, comment, search), and LOAD_STREAMS (2) SSE clients looping
 *    builder answer + PRD generation (scripts/load/sse.ts). The server's RSS
 *    is sampled every 100 ms.
 * 4. Prints the table and writes it to docs/benchmarks.md (between the
 *    `npm-run-load` markers). Exits 1 when anything failed: a non-2xx answer,
 *    a timeout, a socket error or an incomplete stream.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { createDb, migrateToLatest } from "../db/client";
import { startFakeOpenAI } from "../tests/mocks/openai-server";
import { freePort, machine, peakRssMb, productionEnv, spawnGroup, stopGroup, waitForOk, writeBlock } from "./bench/harness";
import { operations, type RouteResult, runOperation } from "./load/mix";
import { runStreams, type StreamSample } from "./load/sse";
import { AREAS } from "./seed-content";
import { seedProjects } from "./seed-projects";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const PROJECTS = Number(process.env.LOAD_PROJECTS ?? 2_000);
const STREAMS = Number(process.env.LOAD_STREAMS ?? 2);
const CHUNKS = Number(process.env.LOAD_CHUNKS ?? 40);
const PACE_MS = Number(process.env.LOAD_PACE_MS ?? 25);
const DOCS = process.env.LOAD_DOCS ?? "docs/benchmarks.md";
const CONNECTIONS = { list: 4, project: 3, prd: 3, update: 2, comment: 2, search: 2 };
const UPDATE_POOL = 200;

// ---------------------------------------------------------------- 0. an up-to-date production build
if (spawnSync(process.execPath, ["scripts/start.mjs", "--build-only"], { stdio: "inherit" }).status !== 0) process.exit(1);

// ---------------------------------------------------------------- 1. seed
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-load-"));
const dbFile = path.join(dataDir, "app.db");
const seedDb = createDb(dbFile).db;
await migrateToLatest(seedDb);
const seeded = await seedProjects(seedDb, { count: PROJECTS });
await seedDb.destroy();

const sqlite = new SQLite(dbFile);
const editors = seeded.users.filter((u) => u.role !== "viewer");
const keyOf = new Map<string, string>();
const keys = editors.map((u) => {
  const key = `svc_${crypto.randomBytes(20).toString("hex")}`;
  sqlite
    .prepare(
      `insert into apiKeys (id, orgId, userId, name, prefix, keyHash, rateLimit, expiresAt, lastUsedAt, revokedAt, createdAt)
       values (?, ?, ?, ?, ?, ?, ?, null, null, null, ?)`,
    )
    .run(
      crypto.randomUUID(),
      seeded.orgId,
      u.id,
      `load ${u.name}`,
      key.slice(0, 10),
      crypto.createHash("sha256").update(key).digest("hex"),
      100_000,
      new Date().toISOString(),
    );
  keyOf.set(u.id, `Bearer ${key}`);
  return `Bearer ${key}`;
});
const rows = sqlite
  .prepare(
    `select p.id, p.createdById, d.currentVersionId as versionId, d.content from projects as p
     left join prds as d on d.projectId = p.id where p.orgId = ? order by p.seq`,
  )
  .all(seeded.orgId) as { id: string; createdById: string; versionId: string | null; content: string | null }[];
sqlite.close();
const projects = rows.map((r) => r.id);
// Disjoint sets: PRD updates, AI generation (which also writes the PRD) and the PRD reads of everything else.
// Writers use the key of the project's creator: members may edit only their own and assigned projects.
const withPrd = rows.filter((r) => r.versionId);
const updatePool = withPrd.slice(0, UPDATE_POOL).map((r) => ({ id: r.id, versionId: r.versionId!, content: r.content!, auth: keyOf.get(r.createdById)! }));
const streamProjects = rows
  .filter((r) => !r.versionId)
  .slice(0, STREAMS)
  .map((r) => ({ id: r.id, auth: keyOf.get(r.createdById)! }));
const prdProjects = withPrd.slice(UPDATE_POOL).map((p) => p.id);
console.log(`Seeded ${seeded.projects} projects (${seeded.prds} with a PRD) in ${seeded.ms} ms; ${keys.length} API keys`);

// ---------------------------------------------------------------- 2. servers
const fake = await startFakeOpenAI({ chunkDelayMs: PACE_MS, chunks: CHUNKS });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = productionEnv(port, dataDir, {
  OPENAI_BASE_URL: `${fake.url}/v1`,
  OPENAI_API_KEY: "",
  OPENAI_MODEL: "load-model",
  AI_MAX_RETRIES: "0",
});
const app = spawnGroup(process.execPath, ["--max-semi-space-size=8", "--max-old-space-size=384", "build/server.js"], env, false);
const rss: number[] = [];
let sampler: NodeJS.Timeout | undefined;
let exitCode = 0;
try {
  await waitForOk(`${base}/api/health`);
  const statusFile = `/proc/${app.pid}/status`;
  const sampleRss = () => {
    try {
      rss.push(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(statusFile, "utf8"))?.[1] ?? 0) / 1024);
    } catch {}
  };
  sampleRss();
  const rssAtStart = rss[0]!;
  /** The server's CPU time so far in seconds (utime + stime, in clock ticks of 1/100 s). */
  const cpuSeconds = () => {
    const fields = fs.readFileSync(`/proc/${app.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };

  // ---------------------------------------------------------------- 3. the mixed load
  const ops = operations(
    { base, keys, projects, prdProjects, updatePool, searchTerms: [...AREAS.slice(0, 12), "checkout conv", "improve", "stripe"] },
    CONNECTIONS,
  );
  console.log(`Load: ${ops.map((o) => `${o.name} ×${o.connections}`).join(", ")}, ${STREAMS} SSE clients; ${SECONDS} s`);
  sampler = setInterval(sampleRss, 100);
  const cpuBefore = cpuSeconds();
  const loadBefore = os.loadavg()[0]!;
  const started = performance.now();
  const [routes, streams] = await Promise.all([
    Promise.all(ops.map((op) => runOperation(base, op, SECONDS))),
    runStreams(base, streamProjects, started + SECONDS * 1000),
  ]);
  const wall = (performance.now() - started) / 1000;
  clearInterval(sampler);
  sampleRss();
  const hwm = peakRssMb(app.pid!);
  const cpu = { server: cpuSeconds() - cpuBefore, loadBefore, loadAfter: os.loadavg()[0]! };

  // ---------------------------------------------------------------- 4. report
  const failedRoutes = routes.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
  const failedStreams = streams.filter((s) => !s.ok);
  const report = render({ routes, streams, wall, rssAtStart, hwm, cpu });
  console.log(`\n${report}\n`);
  for (const r of routes) console.log(`${r.name}: statuses ${JSON.stringify(r.statuses)}, max ${r.max} ms`);
  for (const s of failedStreams.slice(0, 10)) console.log(`failed ${s.kind} stream: ${s.status} ${s.error}`);
  if (failedRoutes + failedStreams.length > 0) {
    console.error(`\n${failedRoutes} failed requests and ${failedStreams.length} failed streams: not written to ${DOCS}`);
    exitCode = 1;
  } else {
    writeBlock(DOCS, "npm-run-load", report);
    console.log(`(written to ${DOCS})`);
  }
} finally {
  if (sampler) clearInterval(sampler);
  await stopGroup(app);
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);

function quantile(xs: number[], q: number) {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

function render(r: {
  routes: RouteResult[];
  streams: StreamSample[];
  wall: number;
  rssAtStart: number;
  hwm: number;
  cpu: { server: number; loadBefore: number; loadAfter: number };
}) {
  const date = new Date().toISOString().slice(0, 10);
  const n = (x: number, digits = 0) => x.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const rows = r.routes.map(
    (x) => `| ${x.label} | ${x.connections} | ${n(x.total)} | ${n(x.rps)} | ${x.p50} | ${x.p99} | ${x.non2xx + x.errors + x.timeouts} |`,
  );
  const total = r.routes.reduce((s, x) => s + x.total, 0);
  const totalRps = r.routes.reduce((s, x) => s + x.rps, 0);
  const streamRows = (["conversation", "generate"] as const).map((kind) => {
    const xs = r.streams.filter((s) => s.kind === kind);
    const ok = xs.filter((s) => s.ok);
    const label = kind === "conversation" ? "`POST /api/projects/{id}/conversation/stream`" : "`POST /api/generate-prd/stream` (regenerate)";
    return `| ${label} | ${ok.length} / ${xs.length} | ${n(
      quantile(
        ok.map((s) => s.ttfb),
        0.5,
      ),
    )} | ${n(
      quantile(
        ok.map((s) => s.ttfb),
        0.99,
      ),
    )} | ${n(
      quantile(
        ok.map((s) => s.firstToken),
        0.5,
      ),
    )} | ${n(
      quantile(
        ok.map((s) => s.total),
        0.5,
      ),
    )} | ${n(
      quantile(
        ok.map((s) => s.total),
        0.99,
      ),
    )} |`;
  });
  const peakSampled = Math.max(...rss);
  return `## ${date} — Load (issue 12): \`npm run load\` (written by scripts/load.ts)

${machine()}; the load generator, the fake provider and the server share these cores.
${PROJECTS.toLocaleString("en")} projects in one Enterprise organization (60% with a PRD of ~2 KB); production build
(\`node --max-semi-space-size=8 --max-old-space-size=384 build/server.js\`); API-key authentication, rotating over the five editors' keys.
All operations run at once for ${SECONDS} s (${r.wall.toFixed(1)} s wall): one autocannon instance per operation with its own
keep-alive connections, so each row is that route's latency under the whole mix. PRD updates lease a project from a
pool of ${UPDATE_POOL} that only they write (with the key of its creator), send the PRD's ETag in \`If-Match\` and keep the new one: a 409 would be a
lost-update bug. Errors are non-2xx answers, timeouts (30 s) and socket errors.

| operation | connections | requests | req/s | p50 ms | p99 ms | errors |
|---|---|---|---|---|---|---|
${rows.join("\n")}
| **all** | ${Object.values(CONNECTIONS).reduce((a, b) => a + b, 0)} | ${n(total)} | ${n(totalRps)} | | | ${r.routes.reduce((s, x) => s + x.non2xx + x.errors + x.timeouts, 0)} |

Beside that, ${STREAMS} SSE clients loop for the whole run, each on a project of its own: answer the builder's question,
then regenerate the PRD from the answers. The fake OpenAI-compatible provider (loopback) streams ${CHUNKS} chunks
${PACE_MS} ms apart (≈${((CHUNKS * PACE_MS) / 1000).toFixed(1)} s of model time per answer). A stream counts as complete when it answered 200 and ended with \`done\`.
TTFB is the first body byte, first token the first \`content\` event, total the end of the stream (ms):

| stream | complete | TTFB p50 | TTFB p99 | first token p50 | total p50 | total p99 |
|---|---|---|---|---|---|---|
${streamRows.join("\n")}

- Server RSS: ${n(r.rssAtStart)} MB after start, peak **${n(Math.max(peakSampled, r.hwm))} MB** (VmHWM; the 100 ms samples peaked at ${n(peakSampled)} MB), ${n(rss[rss.length - 1] ?? NaN)} MB at the end.
- Server CPU: ${n(r.cpu.server, 1)} s over ${r.wall.toFixed(1)} s (${n(r.cpu.server / r.wall, 2)} of ${os.cpus().length} cores). The server is one Node process whose JavaScript
  runs on one thread, so close to one core its event loop is the limit and a request's latency is mostly its wait behind
  the others. autocannon, the SSE clients and the fake provider ran in the load process beside it. One-minute load
  average ${n(r.cpu.loadBefore, 2)} before and ${n(r.cpu.loadAfter, 2)} after (other work on the machine included).`;
}
