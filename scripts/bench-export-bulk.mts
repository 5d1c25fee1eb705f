import { execSync } from "node:child_process";
import fs from "node:fs";
import { largePrd } from "../tests/support/large-prd.ts";
/**
 * Bulk export memory: N projects with a 30,000-word PRD each, exported as one
 * streamed zip, while the server's RSS is sampled every 20 ms from /proc.
 * Start the server first (npm run serve, with DATA_DIR/PORT), sign up, keep the
 * cookie jar (curl -c) and run:
 *   BASE=http://localhost:3556 JAR=/path/to/cookies.txt N=20 npx tsx scripts/bench-export-bulk.mts
 */
const B = process.env.BASE ?? "http://localhost:3000";
const cookie = fs
  .readFileSync(process.env.JAR ?? "cookies.txt", "utf8")
  .split("\n")
  .filter((l) => l.includes("__session"))
  .map((l) => {
    const p = l.split("\t");
    return `${p[5]}=${p[6]}`;
  })
  .join("; ");
const h = { "Content-Type": "application/json", Origin: B, Cookie: cookie };
const { markdown } = largePrd(30_000);
const ids: string[] = [];
const N = Number(process.env.N ?? 20);
for (let i = 0; i < N; i++) {
  const p = await (await fetch(`${B}/api/projects`, { method: "POST", headers: h, body: JSON.stringify({ name: `Large ${i}` }) })).json();
  await fetch(`${B}/api/projects/${p.id}/prd`, { method: "POST", headers: h, body: JSON.stringify({ content: markdown }) });
  ids.push(p.id);
}
const pid = execSync("pgrep -f 'build/server.js'").toString().trim().split("\n")[0];
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
for (const format of (process.env.FORMATS ?? "pdf").split(",")) {
  let peak = rss();
  const before = peak;
  const timer = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 20);
  const t0 = Date.now();
  let first = 0;
  let bytes = 0;
  let chunks = 0;
  const res = await fetch(`${B}/api/export/bulk`, { method: "POST", headers: h, body: JSON.stringify({ projectIds: ids, format }) });
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!first) first = Date.now() - t0;
    bytes += value.length;
    chunks++;
  }
  clearInterval(timer);
  const vm = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1];
  console.log(
    `${format}: status ${res.status}, first byte ${first} ms, total ${Date.now() - t0} ms, ${(bytes / 1e6).toFixed(1)} MB in ${chunks} chunks, server RSS before ${before.toFixed(0)} MB, peak during ${peak.toFixed(0)} MB (VmHWM ${(Number(vm) / 1024).toFixed(0)} MB)`,
  );
}
