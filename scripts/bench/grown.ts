/**
 * The workspace grown the way users grow it, a phase of
 * `npm run bench` (also runnable alone: `npx tsx scripts/bench/grown.ts`
 * after `npm run build`).
 *
 * 1. Starts the production app on a fresh DATA_DIR, registers an owner,
 *    moves the organization to Enterprise and makes an API key.
 * 2. Creates BENCH_PROJECTS projects through `POST /api/projects` with
 *    CONNECTIONS concurrent clients, each project an event to dispatch, and
 *    gives one project a 2,000-word PRD.
 * 3. At once, while the event backlog drains: loads the project list, the
 *    PRD and `/api/search` (p50, p99), polls the backlog until it is empty,
 *    and reads the app's event-loop delay over that window from /metrics
 *    (prom-client's monitorEventLoopDelay gauges, reset at every scrape).
 * 4. After the drain: the list and the PRD against the bare node:http +
 *    better-sqlite3 server over the same rows, alternating.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { enterpriseOwner } from "./owner";
import {
  eventLoopDelay,
  freePort,
  load,
  METRICS_TOKEN,
  type Load,
  median,
  peakRssMb,
  productionEnv,
  spawnForUrl,
  spawnGroup,
  stopGroup,
  waitForOk,
} from "./harness";

const SERVE = ["--max-semi-space-size=8", "--max-old-space-size=384", "build/server.js"];

export interface GrownOptions {
  projects: number;
  connections: number;
  seconds: number;
}

async function backlog(base: string) {
  const health = (await (await fetch(`${base}/api/health?verbose=1`)).json()) as { checks?: { jobs?: { queued: number } } };
  return health.checks?.jobs?.queued ?? NaN;
}

export async function runGrownPhase(options: GrownOptions) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-bench-grown-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = productionEnv(port, dataDir, { METRICS_TOKEN, LOG_LEVEL: "warn" });
  const app = spawnGroup(process.execPath, SERVE, env, false);
  let bare: Awaited<ReturnType<typeof spawnForUrl>> | undefined;
  try {
    await waitForOk(`${base}/api/health`);
    const { orgId, auth } = await enterpriseOwner(base, dataDir, "grown@example.com");

    // ------------------------------------------------------------ 2. grow through the API
    await eventLoopDelay(base);
    const words = ["checkout", "onboarding", "billing", "search", "mobile", "reminders", "reports", "sharing", "exports", "alerts"];
    let next = 0;
    let failed = 0;
    const growStart = performance.now();
    const createLatencies: number[] = [];
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        for (;;) {
          const i = next++;
          if (i >= options.projects) return;
          const w = words[i % words.length]!;
          const t = performance.now();
          const res = await fetch(`${base}/api/projects`, {
            method: "POST",
            headers: { ...auth, "Content-Type": "application/json" },
            body: JSON.stringify({
              name: `${w} improvement ${i}`,
              description: `Make ${w} faster and clearer for returning customers (${i}).`,
              priority: i % 7 ? "medium" : "high",
            }),
          });
          createLatencies.push(performance.now() - t);
          if (res.status !== 201) failed++;
          await res.arrayBuffer();
        }
      }),
    );
    const growSeconds = (performance.now() - growStart) / 1000;
    const growDelay = await eventLoopDelay(base);
    const queuedAtEnd = await backlog(base);
    const sorted = [...createLatencies].sort((a, b) => a - b);
    const createP99 = sorted[Math.floor(sorted.length * 0.99)] ?? NaN;

    const list = (await (await fetch(`${base}/api/projects?limit=1`, { headers: auth })).json()) as { projects: { id: string }[] };
    const prdProject = list.projects[0]!.id;
    const longPrd = `# Checkout redesign\n\n${Array.from({ length: 100 }, (_, i) => `## Part ${i + 1}\n\n${Array.from({ length: 20 }, (_, j) => words[(i + j) % words.length]).join(" ")}.`).join("\n\n")}`;
    const put = await fetch(`${base}/api/projects/${prdProject}/prd`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ content: longPrd }),
    });
    if (put.status >= 300) throw new Error(`PRD: ${put.status} ${await put.text()}`);

    // ------------------------------------------------------------ 3. read while the backlog drains
    await eventLoopDelay(base);
    const drainStart = performance.now();
    let drainedAt: number | null = null;
    const poller = (async () => {
      while (drainedAt === null) {
        if ((await backlog(base)) === 0) drainedAt = performance.now();
        else await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const short = Math.max(3, Math.round(options.seconds / 2));
    const during: Record<string, Load> = {};
    for (const [name, p] of [
      ["list", "/api/projects?limit=50"],
      ["list, sorted by name", "/api/projects?limit=50&sortBy=name&sortOrder=asc"],
      ["list, name search", "/api/projects?limit=50&search=checkout"],
      ["PRD (2,000 words)", `/api/projects/${prdProject}/prd`],
      ["keyword search", "/api/search?q=reminders&mode=keyword"],
    ] as const) {
      during[name] = await load(base + p, auth, options.connections, short);
    }
    const drainDelay = await eventLoopDelay(base);
    await Promise.race([poller, new Promise((r) => setTimeout(r, 120_000))]);
    const drainSeconds = drainedAt === null ? NaN : (drainedAt - drainStart) / 1000;

    // ------------------------------------------------------------ 3b. a backlog of events at once (an import, a bulk change)
    // BACKLOG events written straight into the outbox, as a burst of writes leaves them; then light
    // traffic (one request at a time) measures what the drain costs a user, and the drain its rate.
    const backlogSize = Math.min(options.projects, 10_000);
    const writer = new SQLite(path.join(dataDir, "app.db"));
    writer.pragma("busy_timeout = 5000");
    const ids = writer.prepare("select id from projects where orgId = ? limit ?").pluck().all(orgId, backlogSize) as string[];
    const insert = writer.prepare(
      "insert into events (id, orgId, name, data, actorId, createdAt, processedAt, attempts, lastError, runAt, failedAt) values (?, ?, 'project.updated', ?, null, ?, null, 0, null, ?, null)",
    );
    const at = new Date().toISOString();
    writer.transaction(() => {
      ids.forEach((id, i) =>
        insert.run(`bench-${i}-${id}`, orgId, JSON.stringify({ projectId: id, changes: { priority: { from: "medium", to: "high" } } }), at, at),
      );
    })();
    writer.close();
    await eventLoopDelay(base);
    const burstStart = performance.now();
    const light: number[] = [];
    let burstDrained: number | null = null;
    while (burstDrained === null && performance.now() - burstStart < 120_000) {
      const t = performance.now();
      const res = await fetch(`${base}/api/projects?limit=50`, { headers: auth });
      await res.arrayBuffer();
      light.push(performance.now() - t);
      if (light.length % 20 === 0 && (await backlog(base)) === 0) burstDrained = performance.now();
    }
    const burstDelay = await eventLoopDelay(base);
    const burstSeconds = burstDrained === null ? NaN : (burstDrained - burstStart) / 1000;
    const lightSorted = [...light].sort((a, b) => a - b);
    const q = (f: number) => lightSorted[Math.min(lightSorted.length - 1, Math.floor(lightSorted.length * f))] ?? NaN;

    // ------------------------------------------------------------ 4. after the drain: against the bare server
    bare = await spawnForUrl(["--import", "tsx", "scripts/bench/bare-server.ts", path.join(dataDir, "app.db"), orgId], env, "BARE");
    const paths = { list: "/api/projects?limit=50", prd: `/api/projects/${prdProject}/prd` };
    for (const p of Object.values(paths)) {
      const [a, b] = await Promise.all([fetch(base + p, { headers: auth }), fetch(bare.url + p)]);
      const [ja, jb] = [await a.text(), await b.text()];
      if (ja !== jb) throw new Error(`${p}: the app and the bare server disagree\napp:  ${ja.slice(0, 300)}\nbare: ${jb.slice(0, 300)}`);
    }
    const ratios: Record<string, { app: Load[]; bare: Load[] }> = { list: { app: [], bare: [] }, prd: { app: [], bare: [] } };
    for (let round = 0; round < 2; round++) {
      for (const [name, p] of Object.entries(paths)) {
        ratios[name]!.bare.push(await load(bare.url + p, {}, options.connections, options.seconds));
        ratios[name]!.app.push(await load(base + p, auth, options.connections, options.seconds));
      }
    }
    const rss = peakRssMb(app.pid!);
    const avg = (xs: Load[]) => ({
      rps: xs.reduce((s, x) => s + x.rps, 0) / xs.length,
      p50: median(xs.map((x) => x.p50)),
      p99: Math.max(...xs.map((x) => x.p99)),
    });
    const ratioRows = Object.entries(ratios).map(([name, r]) => {
      const a = avg(r.app);
      const b = avg(r.bare);
      const label = name === "list" ? "`GET /api/projects?limit=50`" : "`GET /api/projects/{id}/prd` (2,000 words)";
      return `| ${label} | ${a.rps.toFixed(0)} req/s, p50 ${a.p50} ms, p99 ${a.p99} ms | ${b.rps.toFixed(0)} req/s, p50 ${b.p50} ms, p99 ${b.p99} ms | **${(a.rps / b.rps).toFixed(2)}×** |`;
    });
    const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : "n/a");
    return `${options.projects.toLocaleString("en")} projects created through \`POST /api/projects\` on the running production app
(${options.connections} concurrent clients, API key): **${(options.projects / growSeconds).toFixed(0)} projects/s** (${growSeconds.toFixed(1)} s,
${failed} failed, p99 ${createP99.toFixed(0)} ms); each creation is an event for webhooks, notifications and exports to dispatch.
Event-loop delay of the app while it created them: p99 **${fmt(growDelay.p99)} ms**, max ${fmt(growDelay.max)} ms. Events still
queued when the last creation answered: **${queuedAtEnd}**; backlog empty ${Number.isFinite(drainSeconds) ? `${drainSeconds.toFixed(1)} s` : "not within 2 min"} after the reads below began.

Reads at once, while the backlog drains (${options.connections} connections, ${short} s each):

| request | req/s | p50 ms | p99 ms | non-2xx |
|---|---|---|---|---|
${Object.entries(during)
  .map(([name, r]) => `| ${name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} |`)
  .join("\n")}

Event-loop delay of the app over those reads: p99 **${fmt(drainDelay.p99)} ms**, max ${fmt(drainDelay.max)} ms (the reads
saturate the process: each loop turn serves several requests).

A burst of ${backlogSize.toLocaleString("en")} \`project.updated\` events written at once (as an import or a bulk status change leaves
them), drained while one client reads the project list request after request: **${Number.isFinite(burstSeconds) ? `${(backlogSize / burstSeconds).toFixed(0)} events/s` : "not drained in 2 min"}**
(${Number.isFinite(burstSeconds) ? `${burstSeconds.toFixed(1)} s` : "n/a"}); the reader's latency over the drain p50 ${fmt(q(0.5))} ms, p99 **${fmt(q(0.99))} ms**, max ${fmt(lightSorted.at(-1) ?? NaN)} ms
(${light.length} requests); event-loop delay p99 **${fmt(burstDelay.p99)} ms**, max ${fmt(burstDelay.max)} ms.

After the drain, against the bare server over the same rows (2 alternating rounds of ${options.seconds} s):

| request | app | bare server | ratio |
|---|---|---|---|
${ratioRows.join("\n")}

Peak RSS of the app over this phase: **${rss.toFixed(0)} MB**.`;
  } finally {
    await stopGroup(app);
    if (bare) await stopGroup(bare.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runGrownPhase({
    projects: Number(process.env.BENCH_PROJECTS ?? 10_000),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
    seconds: Number(process.env.BENCH_SECONDS ?? 8),
  });
  console.log(report);
}
