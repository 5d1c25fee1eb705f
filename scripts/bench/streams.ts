/**
 * AI streaming benchmark: how much latency the app adds between a provider's
 * chunk and its arrival at the client, and whether many concurrent streams
 * all arrive whole.
 *   npm run build && npm run bench:ai      (also a phase of `npm run bench`)
 *
 * A local fake OpenAI-compatible server (tests/mocks/openai-server.ts)
 * streams CHUNKS chunks at a fixed pace, each stamped with the wall-clock
 * time it was written. The production app runs with OPENAI_BASE_URL pointing
 * at it. The client reads POST /api/ai/improve as SSE and computes, per
 * chunk, arrival time minus stamp. The same measurement straight against the
 * fake server, in the same run, is the baseline; the difference is what the
 * app adds. Then CONCURRENT streams run at once and every stream and chunk is
 * counted. Prints Markdown for docs/benchmarks.md.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createParser } from "eventsource-parser";
import { freePort, peakRssMb, productionEnv, waitForOk } from "./harness";
import { startFakeOpenAI } from "../../tests/mocks/openai-server";

/** A user may have AI_CONCURRENT_PER_USER (5) AI requests running at once (docs/security.md), so 500 streams need 100 users. */
const PER_USER = 5;

export interface StreamsOptions {
  chunks: number;
  paceMs: number;
  samples: number;
  concurrent: number;
}

const countBy = (xs: string[]) => xs.reduce<Record<string, number>>((acc, x) => ({ ...acc, [x]: (acc[x] ?? 0) + 1 }), {});
const now = () => performance.timeOrigin + performance.now();
const STAMP = /⟦t=([\d.]+)⟧/g;
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

/** Reads an SSE response; returns the latency of every stamped chunk and whether `done` came. */
async function readStream(response: Response, pickText: (data: any) => string | null) {
  const latencies: number[] = [];
  let done = false;
  let buffered = "";
  const parser = createParser({
    onEvent(event) {
      if (event.data === "[DONE]") return void (done = true);
      const data = JSON.parse(event.data);
      if (data.type === "done") done = true;
      const text = pickText(data);
      if (!text) return;
      const arrived = now();
      buffered += text;
      for (const m of buffered.matchAll(STAMP)) latencies.push(arrived - Number(m[1]));
      buffered = buffered.slice(buffered.lastIndexOf("⟧") + 1);
    },
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    parser.feed(value);
  }
  return { latencies, done };
}

export async function runStreamsPhase({ chunks: CHUNKS, paceMs: PACE_MS, samples: SAMPLES, concurrent: CONCURRENT }: StreamsOptions): Promise<string> {
  const USERS = Math.ceil(CONCURRENT / PER_USER);
  const fake = await startFakeOpenAI({
    chunkDelayMs: PACE_MS,
    chunks: CHUNKS,
    stampChunks: true,
  });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-bench-ai-"));
  const server = spawn(process.execPath, ["--max-semi-space-size=8", "--max-old-space-size=384", "build/server.js"], {
    env: productionEnv(port, dataDir, {
      DEFAULT_PLAN: "enterprise",
      TRUST_PROXY: "true",
      OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: "",
      OPENAI_MODEL: "bench-model",
      AI_MAX_RETRIES: "0",
      LOG_LEVEL: "warn",
    }),
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForOk(`${base}/api/health`);

  // Enough users that the per-user cap on running AI requests and the plan's AI rate allow the concurrent run.
  const cookies: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const res = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Forwarded-For": `10.9.${Math.floor(i / 200)}.${(i % 200) + 1}`,
      },
      body: JSON.stringify({
        name: `Bench ${i}`,
        email: `bench-ai-${i}@example.com`,
        password: "Bench-Mark-123",
      }),
    });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
    cookies.push(res.headers.getSetCookie()[0]!.split(";")[0]!);
  }

  const body = JSON.stringify({
    content: "Make this clearer: users wait too long at checkout.",
    improvementType: "improve_writing",
  });
  const viaApp = (cookie: string) =>
    fetch(`${base}/api/ai/improve`, {
      method: "POST",
      headers: { "Content-Type": "application/json", cookie },
      body,
    });
  const direct = () =>
    fetch(`${fake.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        model: "bench-model",
        stream: true,
        messages: [{ role: "user", content: "Make this clearer" }],
      }),
    });
  const appText = (d: any) => (d.type === "content" ? String(d.content) : null);
  const directText = (d: any) => d.choices?.[0]?.delta?.content ?? null;

  // 1. Added latency: alternate direct and via-app streams, one at a time.
  const directLat: number[] = [];
  const appLat: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    directLat.push(...(await readStream(await direct(), directText)).latencies);
    appLat.push(...(await readStream(await viaApp(cookies[0]!), appText)).latencies);
  }

  // 2. Many concurrent streams through the app, the server's RSS sampled every 50 ms.
  const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  const rssBefore = rssMb();
  const hwmBefore = peakRssMb(server.pid!);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb())), 50);
  const started = now();
  const results = await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, i) => {
      try {
        const res = await viaApp(cookies[i % cookies.length]!);
        if (res.status !== 200)
          return {
            ok: false,
            chunks: 0,
            status: res.status,
            latencies: [] as number[],
          };
        const r = await readStream(res, appText);
        return {
          ok: r.done,
          chunks: r.latencies.length,
          status: 200,
          latencies: r.latencies,
        };
      } catch {
        return { ok: false, chunks: 0, status: 0, latencies: [] as number[] };
      }
    }),
  );
  const wall = (now() - started) / 1000;
  clearInterval(sampler);
  const hwm = peakRssMb(server.pid!);
  const whole = results.filter((r) => r.ok && r.chunks === CHUNKS).length;
  const lostChunks = results.reduce((n, r) => n + (CHUNKS - r.chunks), 0);
  const concurrentLat = results.flatMap((r) => r.latencies);

  const fmt = (n: number) => n.toFixed(2);
  const report = `Node ${process.version}, ${os.cpus().length} cores; fake provider: ${CHUNKS} chunks every ${PACE_MS} ms; \`POST /api/ai/improve\` read as SSE.

| path | chunks | p50 ms | p90 ms | p99 ms |
|---|---|---|---|---|
| provider → client (bare baseline) | ${directLat.length} | ${fmt(
    quantile(directLat, 0.5),
  )} | ${fmt(quantile(directLat, 0.9))} | ${fmt(quantile(directLat, 0.99))} |
| provider → app → client (one stream) | ${appLat.length} | ${fmt(quantile(appLat, 0.5))} | ${fmt(quantile(appLat, 0.9))} | ${fmt(quantile(appLat, 0.99))} |
| provider → app → client (${CONCURRENT} at once) | ${concurrentLat.length} | ${fmt(quantile(concurrentLat, 0.5))} | ${fmt(
    quantile(concurrentLat, 0.9),
  )} | ${fmt(quantile(concurrentLat, 0.99))} |

- Added by the app (one stream, median): **${fmt(quantile(appLat, 0.5) - quantile(directLat, 0.5))} ms**.
- ${CONCURRENT} concurrent streams (${USERS} users): ${whole} complete with all ${CHUNKS} chunks, ${
    CONCURRENT - whole
  } incomplete, ${lostChunks} chunks lost, statuses ${JSON.stringify(countBy(results.map((r) => String(r.status))))}, ${wall.toFixed(1)} s wall.
- App RSS: ${rssBefore.toFixed(0)} MB before the ${CONCURRENT} streams (peak so far ${hwmBefore.toFixed(
    0,
  )} MB, the sign-ups' password hashing), **peak ${Math.max(rssPeak, hwm).toFixed(0)} MB** (VmHWM); **${(((rssPeak - rssBefore) * 1024) / CONCURRENT).toFixed(
    0,
  )} KB per stream** (the 50 ms samples' peak over the RSS before, divided by ${CONCURRENT}).`;

  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return report;
}
