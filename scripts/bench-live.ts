/**
 * Real-time co-editing benchmark (docs/design/live-editing.md):
 *
 *   npm run bench:live        (builds first when the build is missing or stale)
 *
 * Starts the production app on a fresh DATA_DIR, registers LIVE_EDITORS (20)
 * users in one Enterprise organization (each with its own session) and gives
 * one project a large PRD (five calibration PRDs, 27,000 characters). Each
 * editor is a Y.Doc in this process with its own SSE stream of
 * GET …/prd/live; for LIVE_SECONDS (60) each types ~3 keystrokes a second
 * (jittered) at random places in the first ten paragraphs, every keystroke
 * posted as one update. Measured:
 * - the latency from a POST's start to the update's arrival on each other
 *   editor's stream (p50, p95, max);
 * - the app's RSS (VmRSS sampled every 100 ms, and VmHWM) and its event-loop
 *   delay (/metrics);
 * - the bare baseline of the same run: GET /api/health one at a time, before
 *   and while the editors type.
 * Then a version is saved (POST …/live/versions) and every editor's document
 * is compared with the saved Markdown, and each editor's letter (editor i
 * types only the i-th letter) is counted: no keystroke may be lost.
 * Prints Markdown for docs/benchmarks.md.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { createParser } from "eventsource-parser";
import * as Y from "yjs";
import { eventLoopDelay, freePort, machine, METRICS_TOKEN, peakRssMb, productionEnv, rssMb, spawnGroup, stopGroup, waitForOk } from "./bench/harness";

const EDITORS = Number(process.env.LIVE_EDITORS ?? 20);
const SECONDS = Number(process.env.LIVE_SECONDS ?? 60);
const RATE = Number(process.env.LIVE_KEYS_PER_SECOND ?? 3);

const { jsonToMarkdown, readLiveDoc } = await import("~/domain/live/document.server");

if (EDITORS > 26) throw new Error("LIVE_EDITORS: at most 26 (one letter each)");
// ---------------------------------------------------------------- 0. an up-to-date production build
if (spawnSync(process.execPath, ["scripts/start.mjs", "--build-only"], { stdio: "inherit" }).status !== 0) process.exit(1);

const now = () => performance.timeOrigin + performance.now();
const q = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(f * xs.length))] ?? Number.NaN;
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const unb64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-bench-live-"));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const app = spawnGroup(
  process.execPath,
  ["--max-semi-space-size=8", "--max-old-space-size=384", "build/server.js"],
  productionEnv(port, dataDir, { METRICS_TOKEN, LOG_LEVEL: "warn", TRUST_PROXY: "true", DEFAULT_PLAN: "enterprise" }),
  false,
);

try {
  await waitForOk(`${base}/api/health`);

  // ---------------------------------------------------------------- 1. editors, one organization, one large PRD
  const cookies: string[] = [];
  const userIds: string[] = [];
  for (let i = 0; i < EDITORS; i++) {
    const res = await fetch(`${base}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base, "X-Forwarded-For": `10.77.0.${i + 1}` },
      body: JSON.stringify({ name: `Editor ${String.fromCharCode(65 + i)}`, email: `live-${i}@example.com`, password: "Bench-Live-2026" }),
    });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
    cookies.push(res.headers.getSetCookie()[0]!.split(";")[0]!);
    userIds.push(((await res.json()) as { user: { id: string } }).user.id);
  }
  const admin = new SQLite(path.join(dataDir, "app.db"));
  const orgId = (admin.prepare("select orgId from memberships where userId = ?").get(userIds[0]) as { orgId: string }).orgId;
  admin.prepare("update organizations set plan = 'enterprise' where id = ?").run(orgId);
  for (const userId of userIds.slice(1)) {
    // As an invitation would: an admin of the first editor's organization (admins edit every project), sessions moved there.
    admin
      .prepare("insert into memberships (id, orgId, userId, role, createdAt) values (?, ?, ?, 'admin', ?)")
      .run(`m-${userId}`, orgId, userId, new Date().toISOString());
    admin.prepare("update sessions set orgId = ? where userId = ?").run(orgId, userId);
  }
  admin.close();
  const json = (i: number) => ({ "Content-Type": "application/json", Origin: base, cookie: cookies[i]! });
  const dir = "tests/fixtures/calibration";
  const prd = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .slice(0, 5)
    .map((f) => fs.readFileSync(`${dir}/${f}`, "utf8"))
    .join("\n");
  const project = (await (
    await fetch(`${base}/api/projects`, { method: "POST", headers: json(0), body: JSON.stringify({ name: "Live benchmark" }) })
  ).json()) as { id: string };
  const put = await fetch(`${base}/api/projects/${project.id}/prd`, { method: "POST", headers: json(0), body: JSON.stringify({ content: prd }) });
  if (put.status !== 201) throw new Error(`PRD: ${put.status} ${await put.text()}`);
  const live = `${base}/api/projects/${project.id}/prd/live`;

  // ---------------------------------------------------------------- 2. the bare baseline, before anyone is live
  const health = async (n: number, gapMs = 0) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await (await fetch(`${base}/api/health`)).arrayBuffer();
      out.push(performance.now() - t);
      if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
    }
    return out;
  };
  await health(50);
  const idleHealth = await health(300);

  // ---------------------------------------------------------------- 3. the editors' streams
  const posted = new Map<string, number>();
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let received = 0;
  const editors = await Promise.all(
    Array.from({ length: EDITORS }, async (_, i) => {
      const doc = new Y.Doc();
      const clientId = `bench-editor-${i}-${Date.now().toString(36)}`;
      const controller = new AbortController();
      let synced!: () => void;
      const ready = new Promise<void>((r) => (synced = r));
      const res = await fetch(`${live}?clientId=${clientId}`, { headers: { cookie: cookies[i]! }, signal: controller.signal });
      if (res.status !== 200) throw new Error(`stream: ${res.status} ${await res.text()}`);
      // A large state comes in parts: the sync with the first, `state` events with the rest.
      const parts: string[] = [];
      let expected = 0;
      const parser = createParser({
        onEvent(event) {
          const data = JSON.parse(event.data) as { type: string; state?: string; parts?: number; update?: string; clientId?: string };
          if (data.type === "sync" || (data.type === "state" && expected)) {
            if (data.type === "sync") expected = data.parts ?? 1;
            parts.push(data.state!);
            if (parts.length < expected) return;
            Y.applyUpdate(doc, unb64(parts.join("")), "remote");
            expected = 0;
            synced();
          } else if (data.type === "update" && data.clientId !== clientId) {
            const sent = posted.get(data.update!);
            if (sent !== undefined) latencies.push(now() - sent);
            received++;
            Y.applyUpdate(doc, unb64(data.update!), "remote");
          }
        },
      });
      const reading = (async () => {
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            parser.feed(value);
          }
        } catch {
          /* aborted at the end */
        }
      })();
      await ready;
      return { i, doc, clientId, controller, reading, typed: 0 };
    }),
  );
  await new Promise((r) => setTimeout(r, 500));

  // ---------------------------------------------------------------- 4. typing
  const letterOf = (i: number) => String.fromCharCode(97 + i);
  const paragraphs = (doc: Y.Doc) =>
    doc
      .getXmlFragment("default")
      .toArray()
      .filter((b): b is Y.XmlElement => b instanceof Y.XmlElement && b.nodeName === "paragraph")
      .slice(0, 10)
      .map((p) => p.toArray().find((c): c is Y.XmlText => c instanceof Y.XmlText))
      .filter((t): t is Y.XmlText => Boolean(t));
  await eventLoopDelay(base); // resets the gauges
  let rssPeak = rssMb(app.pid!);
  const rssBefore = rssPeak;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(app.pid!))), 100);
  const inflight = new Set<Promise<void>>();
  let typing = true;
  const busyHealth: number[] = [];
  const prober = (async () => {
    while (typing) busyHealth.push(...(await health(1, 100)));
  })();
  const started = performance.now();
  const typists = editors.map(async (e) => {
    let next = performance.now() + Math.random() * (1000 / RATE);
    while (performance.now() - started < SECONDS * 1000) {
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      next += (1000 / RATE) * (0.5 + Math.random());
      const texts = paragraphs(e.doc);
      const text = texts[Math.floor(Math.random() * texts.length)]!;
      let update: Uint8Array | undefined;
      const capture = (u: Uint8Array, origin: unknown) => {
        if (origin !== "remote") update = u;
      };
      e.doc.on("update", capture);
      text.insert(Math.floor(Math.random() * (text.length + 1)), letterOf(e.i));
      e.doc.off("update", capture);
      e.typed++;
      const body = b64(update!);
      posted.set(body, now());
      const p: Promise<void> = fetch(`${live}/updates`, { method: "POST", headers: json(e.i), body: JSON.stringify({ clientId: e.clientId, update: body }) })
        .then(async (res) => {
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        })
        .catch(() => {
          statuses.set(0, (statuses.get(0) ?? 0) + 1);
        })
        .finally(() => inflight.delete(p));
      inflight.add(p);
    }
  });
  await Promise.all(typists);
  await Promise.all([...inflight]);
  const typedAll = editors.reduce((n, e) => n + e.typed, 0);
  const expected = typedAll * (EDITORS - 1);
  const until = performance.now() + 10_000;
  while (received < expected && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
  const wall = (performance.now() - started) / 1000;
  typing = false;
  await prober;
  clearInterval(sampler);
  const loop = await eventLoopDelay(base);
  const hwm = peakRssMb(app.pid!);

  // ---------------------------------------------------------------- 5. a version, and every editor's document against it
  const t = performance.now();
  const version = (await (await fetch(`${live}/versions`, { method: "POST", headers: json(0), body: "{}" })).json()) as {
    saved: boolean;
    versionNumber: number;
  };
  const versionMs = performance.now() - t;
  const saved = ((await (await fetch(`${base}/api/projects/${project.id}/prd`, { headers: { cookie: cookies[0]! } })).json()) as { prd: { content: string } })
    .prd.content;
  const markdownOf = (doc: Y.Doc) => {
    const read = readLiveDoc(doc);
    if (!read.ok) throw new Error(read.reason);
    return jsonToMarkdown(read.json);
  };
  const equal = editors.filter((e) => markdownOf(e.doc) === saved).length;
  const count = (text: string, letter: string) => text.split(letter).length - 1;
  const lost = editors.reduce((n, e) => n + Math.abs(count(saved, letterOf(e.i)) - count(prd, letterOf(e.i)) - e.typed), 0);
  for (const e of editors) e.controller.abort();
  await Promise.all(editors.map((e) => e.reading));

  const statusText = [...statuses].map(([s, n]) => `${n} × ${s || "network error"}`).join(", ");
  console.log(`## Real-time co-editing — \`npm run bench:live\`

${new Date().toISOString().slice(0, 10)}, ${machine()}. The production build on a fresh data directory; ${EDITORS} editors (${EDITORS} users, one session and one SSE stream each, Y.Docs in the benchmark process on the same machine) typing ~${RATE} keystrokes a second each for ${SECONDS} s into the first ten paragraphs of one ${prd.length.toLocaleString("en")}-character PRD; every keystroke one \`POST …/prd/live/updates\`.

| measure | p50 ms | p95 ms | max ms | samples |
|---|---|---|---|---|
| bare baseline: \`GET /api/health\`, one at a time, nobody live | ${ms(q(idleHealth, 0.5))} | ${ms(q(idleHealth, 0.95))} | ${ms(Math.max(...idleHealth))} | ${idleHealth.length} |
| \`GET /api/health\` while the ${EDITORS} editors type | ${ms(q(busyHealth, 0.5))} | ${ms(q(busyHealth, 0.95))} | ${ms(Math.max(...busyHealth))} | ${busyHealth.length} |
| keystroke: POST start → arrival on another editor's stream | ${ms(q(latencies, 0.5))} | ${ms(q(latencies, 0.95))} | ${ms(Math.max(...latencies))} | ${latencies.length.toLocaleString("en")} |

- ${typedAll.toLocaleString("en")} keystrokes in ${wall.toFixed(1)} s (${(typedAll / wall).toFixed(0)} updates/s in, ${(received / wall).toFixed(0)} events/s out); POST answers: ${statusText}; ${received.toLocaleString("en")} of ${expected.toLocaleString("en")} expected update events arrived.
- App RSS: ${rssBefore.toFixed(0)} MB when the editors connected, **peak ${Math.max(rssPeak, hwm).toFixed(0)} MB** (VmRSS every 100 ms; VmHWM ${hwm.toFixed(0)} MB). Event-loop delay while typing (\`/metrics\`): p99 ${ms(loop.p99)} ms, max ${ms(loop.max)} ms.
- Version saved on demand afterwards: ${version.saved ? `v${version.versionNumber}` : "nothing saved"} in ${ms(versionMs)} ms; **${equal} of ${EDITORS} editors' documents equal the saved Markdown**; **${lost} keystrokes lost** (each editor's letter counted in the saved PRD).`);
} finally {
  await stopGroup(app);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
