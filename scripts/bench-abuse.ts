/**
 * One tenant attacks, another works (docs/benchmarks.md, "Abuse"): while an
 * attacker runs each attack of issue 33 against the production server, a
 * victim organization (BENCH_PROJECTS projects, default 10,000) lists its
 * projects (`GET /api/projects?limit=20`, BENCH_CONNECTIONS=2 for
 * BENCH_SECONDS=8 per attack). Reports the victim's p99 and requests per
 * second against a baseline measured in the same run with no attack, the
 * server's peak RSS during the attack, and what the attack got back. The
 * server runs as `npm start` runs it (`--max-old-space-size=384`).
 *
 *   npm run build && npm run bench:abuse      (BENCH_WRITE=1 writes the table into docs/benchmarks.md;
 *                                             BENCH_ONLY=<part of a name> runs only those attacks)
 *
 * Every request goes to 127.0.0.1; every loop is bounded in time.
 */
import net from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, migrateToLatest } from "../db/client";
import { freePort, load, machine, productionEnv, sampleRss, signInCookie, spawnGroup, stopGroup, waitForOk, writeBlock } from "./bench/harness";
import { abuseAttacks, type Attacker } from "./bench/abuse-attacks";
import { seedProjects } from "./seed-projects";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 2);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 10_000);
/** Runs only the attacks whose name contains one of these texts (BENCH_ONLY="PRD check|live streams"). */
const ONLY = process.env.BENCH_ONLY?.split("|");

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-bench-abuse-"));
const victim = await (async () => {
  const { db } = createDb(path.join(dataDir, "app.db"));
  await migrateToLatest(db);
  const seeded = await seedProjects(db, { count: PROJECTS, orgName: "Victim Co" });
  await db.destroy();
  return seeded;
})();

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
// A hung webhook receiver for the background-work attack: accepts, never answers.
const hung = net.createServer(() => {}).listen(0, "127.0.0.1");
await new Promise((r) => hung.once("listening", r));
const hungUrl = `http://127.0.0.1:${(hung.address() as net.AddressInfo).port}/hook`;

const server = spawnGroup(
  process.execPath,
  ["--max-semi-space-size=8", "--max-old-space-size=384", "build/server.js"],
  productionEnv(port, dataDir, { DEFAULT_PLAN: "enterprise", ALLOW_PRIVATE_WEBHOOK_TARGETS: "true" }),
);
let exitedEarly = false;
server.once("exit", () => (exitedEarly = true));
// A failure below (a refused sign-in, say) must not leave the server running.
process.once("uncaughtException", (error) => {
  console.error(error);
  void stopGroup(server).finally(() => process.exit(1));
});
await waitForOk(`${base}/api/health`);

const victimCookie = await signInCookie(base, victim.member.email, victim.password);
const attacker = await registerAttacker();

function sendJson(method: string, pathname: string, body: unknown, headers: Record<string, string>) {
  return fetch(`${base}${pathname}`, {
    method,
    headers: { "Content-Type": "application/json", Origin: base, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function registerAttacker(): Promise<Attacker> {
  const email = `attacker-${Date.now()}@evil.example`;
  const res = await sendJson("POST", "/api/auth/register", { name: "Mallory", email, password: "Attack-Pass-123" }, {});
  if (!res.ok) throw new Error(`register: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie()[0]!.split(";")[0]!;
  return { base, cookie, hungUrl, send: (method, pathname, body) => sendJson(method, pathname, body, { Cookie: cookie }) };
}

const victimLoad = () => load(`${base}/api/projects?limit=20`, { Cookie: victimCookie }, CONNECTIONS, SECONDS);

interface Row {
  attack: string;
  p50: number;
  p99: number;
  rps: number;
  non2xx: number;
  rssMb: number;
  outcome: string;
}
const rows: Row[] = [];
const rss = sampleRss(server.pid!);
const baseline = await victimLoad();
rows.push({ attack: "none (baseline)", ...baseline, rssMb: Math.round(rss.stop()), outcome: "" });

for (const attack of abuseAttacks) {
  if (exitedEarly) break;
  if (ONLY && !ONLY.some((part) => attack.name.includes(part))) continue;
  await attack.prepare?.(attacker);
  const sampler = sampleRss(server.pid!);
  const until = Date.now() + SECONDS * 1000;
  const running = attack.run(attacker, until);
  const victim = await victimLoad();
  const outcome = await running;
  const health = await fetch(`${base}/api/health`).then(
    (r) => r.status,
    () => 0,
  );
  rows.push({ attack: attack.name, ...victim, rssMb: Math.round(sampler.stop()), outcome: `${outcome}${health === 200 ? "" : `; health ${health}`}` });
  await attack.cleanup?.(attacker);
  console.log(`${attack.name}: victim p99 ${victim.p99} ms, ${Math.round(victim.rps)}/s; RSS ${rows.at(-1)!.rssMb} MB; ${outcome}`);
}

const crashed = exitedEarly;
await stopGroup(server);
hung.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}; ${PROJECTS.toLocaleString("en")} victim projects; the victim lists projects over ${CONNECTIONS} connections for ${SECONDS} s during each attack.`,
  "",
  "| attack | victim p50 ms | victim p99 ms | victim req/s | victim non-2xx | server peak RSS MB | what the attacker got |",
  "|---|---|---|---|---|---|---|",
  ...rows.map((r) => `| ${r.attack} | ${r.p50} | ${r.p99} | ${Math.round(r.rps)} | ${r.non2xx} | ${r.rssMb} | ${r.outcome} |`),
  crashed ? "\n**The server exited during the run.**" : "",
].join("\n");
console.log(`\n${table}`);
if (process.env.BENCH_WRITE === "1") writeBlock("docs/benchmarks.md", "bench-abuse", table);
const worstP99 = Math.max(...rows.slice(1).map((r) => r.p99));
const worstRss = Math.max(...rows.map((r) => r.rssMb));
console.log(`\nworst victim p99 under attack: ${worstP99} ms (bound 100); peak RSS ${worstRss} MB (bound 400)`);
if (crashed || worstP99 >= 100 || worstRss >= 400) process.exitCode = 1;
