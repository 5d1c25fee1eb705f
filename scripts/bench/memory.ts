/**
 * Memory and the event loop under exports, a phase of
 * `npm run bench` (alone: `npx tsx scripts/bench/memory.ts` after
 * `npm run build`).
 *
 * The production app on a fresh DATA_DIR, an Enterprise owner with an API key
 * and BULK projects, each with the same 30,000-word PRD
 * (tests/support/large-prd.ts). The app's RSS is sampled every 20 ms.
 * 1. The project list under load (10 connections) while five exports of one
 *    30,000-word PRD run at once (pdf, docx, html, pdf, docx), ROUNDS times;
 *    one client meanwhile reads `/api/health` request after request, the
 *    latency a user sees while exports render.
 * 2. One bulk export of all BULK projects in every format (a streamed zip).
 * Reports per step: time, peak RSS, the event-loop delay from /metrics.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { largePrd } from "../../tests/support/large-prd";
import { enterpriseOwner } from "./owner";
import { eventLoopDelay, freePort, load, METRICS_TOKEN, peakRssMb, productionEnv, rssMb, sampleRss, spawnGroup, stopGroup, waitForOk } from "./harness";

export interface MemoryOptions {
  rounds: number;
  bulk: number;
}

const q = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * f))] ?? NaN;

export async function runMemoryPhase(options: MemoryOptions) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-bench-memory-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = spawnGroup(
    process.execPath,
    ["--max-semi-space-size=8", "--max-old-space-size=384", "build/server.js"],
    productionEnv(port, dataDir, { METRICS_TOKEN, LOG_LEVEL: "warn" }),
    false,
  );
  try {
    await waitForOk(`${base}/api/health`);
    const { auth } = await enterpriseOwner(base, dataDir, "memory@example.com");
    const json = { ...auth, "Content-Type": "application/json" };
    const { markdown, wordCount } = largePrd(30_000);
    const ids: string[] = [];
    for (let i = 0; i < options.bulk; i++) {
      const p = (await (await fetch(`${base}/api/projects`, { method: "POST", headers: json, body: JSON.stringify({ name: `Large PRD ${i}` }) })).json()) as {
        id: string;
      };
      const put = await fetch(`${base}/api/projects/${p.id}/prd`, { method: "POST", headers: json, body: JSON.stringify({ content: markdown }) });
      if (put.status >= 300) throw new Error(`PRD: ${put.status} ${await put.text()}`);
      ids.push(p.id);
    }
    // One export of each kind first, so the renderers and fonts are loaded as after any first use.
    for (const format of ["pdf", "docx", "html"])
      await (await fetch(`${base}/api/export/${format}`, { method: "POST", headers: json, body: JSON.stringify({ projectId: ids[0] }) })).arrayBuffer();
    const settled = rssMb(app.pid!);

    // ------------------------------------------------------------ 1. list + five exports at once
    await eventLoopDelay(base);
    const rss1 = sampleRss(app.pid!);
    const exportMs: number[] = [];
    const statuses = new Map<number, number>();
    let exporting = true;
    const health: number[] = [];
    const prober = (async () => {
      while (exporting) {
        const t = performance.now();
        await (await fetch(`${base}/api/health`)).arrayBuffer();
        health.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const exporter = (async () => {
      for (let round = 0; round < options.rounds; round++) {
        await Promise.all(
          ["pdf", "docx", "html", "pdf", "docx"].map(async (format, i) => {
            const t = performance.now();
            const res = await fetch(`${base}/api/export/${format}`, {
              method: "POST",
              headers: json,
              body: JSON.stringify({ projectId: ids[i % ids.length] }),
            });
            await res.arrayBuffer();
            exportMs.push(performance.now() - t);
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          }),
        );
      }
      exporting = false;
    })();
    const started = performance.now();
    const lists: Awaited<ReturnType<typeof load>>[] = [];
    while (exporting) lists.push(await load(`${base}/api/projects?limit=50`, auth, 10, 2));
    await exporter;
    await prober;
    const seconds1 = (performance.now() - started) / 1000;
    const peak1 = rss1.stop();
    const delay1 = await eventLoopDelay(base);

    // ------------------------------------------------------------ 2. bulk export, every format
    const rss2 = sampleRss(app.pid!);
    const t2 = performance.now();
    const bulk = await fetch(`${base}/api/export/bulk`, { method: "POST", headers: json, body: JSON.stringify({ projectIds: ids, format: "all" }) });
    const zipBytes = (await bulk.arrayBuffer()).byteLength;
    const seconds2 = (performance.now() - t2) / 1000;
    const peak2 = rss2.stop();
    const delay2 = await eventLoopDelay(base);
    const hwm = peakRssMb(app.pid!);

    const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");
    const listP99 = Math.max(...lists.map((l) => l.p99));
    const listRps = lists.reduce((s, l) => s + l.rps, 0) / Math.max(1, lists.length);
    return `The production app, an Enterprise organization with ${options.bulk} projects, each with the same ${wordCount.toLocaleString("en")}-word PRD;
RSS sampled every 20 ms. After one export of each kind (renderers and fonts loaded): **${settled.toFixed(0)} MB**.

| load | time | exports | app RSS peak | event-loop delay p99 / max | |
|---|---|---|---|---|---|
| list (10 connections) + 5 exports at once (pdf, docx, html, pdf, docx) × ${options.rounds} | ${seconds1.toFixed(1)} s | ${exportMs.length} (statuses ${JSON.stringify(Object.fromEntries(statuses))}), p50 ${q(exportMs, 0.5).toFixed(0)} ms, max ${Math.max(...exportMs).toFixed(0)} ms | **${peak1.toFixed(0)} MB** | ${fmt(delay1.p99)} / ${fmt(delay1.max)} ms | list ${listRps.toFixed(0)} req/s, p99 ${listP99} ms; \`/api/health\` one at a time p50 ${fmt(q(health, 0.5))} ms, p99 **${fmt(q(health, 0.99))} ms**, max ${fmt(Math.max(...health))} ms |
| bulk export, ${options.bulk} projects × (pdf + html + md) | ${seconds2.toFixed(1)} s | status ${bulk.status}, ${(zipBytes / 1e6).toFixed(1)} MB zip | **${peak2.toFixed(0)} MB** | ${fmt(delay2.p99)} / ${fmt(delay2.max)} ms | |

Peak RSS of the app over this phase (VmHWM): **${hwm.toFixed(0)} MB**.`;
  } finally {
    await stopGroup(app);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await runMemoryPhase({ rounds: Number(process.env.BENCH_ROUNDS ?? 4), bulk: Number(process.env.BENCH_BULK ?? 20) }));
}
