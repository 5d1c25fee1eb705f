/**
 * Durable commits: what `synchronous = FULL` costs in write throughput
 * (docs/benchmarks.md, "Durable commits"). Builds nothing:
 *
 *   npx tsx scripts/bench-durability.ts      (BENCH_RUNS=7, BENCH_ROWS=1000, BENCH_CREATES=200)
 *
 * One process, one fresh DATA_DIR under os.tmpdir() (point TMPDIR at the
 * disk to measure), migrated and seeded with one enterprise organization.
 * The app's own connection (db/client.ts `openSqlite`, WAL) is switched
 * between synchronous = NORMAL and FULL run by run, alternating which goes
 * first, so both modes share the machine's noise. Each run measures:
 *
 *   1. single-row insert transactions: one INSERT per (autocommit)
 *      transaction, the smallest durable write;
 *   2. project creates: `createProject` (app/domain/projects) in a loop, the
 *      realistic write: one transaction with the project, its status
 *      history, activity, search index rows and event;
 *   3. batched inserts: 100 commits of 10 and of 100 rows (what FULL costs
 *      when commits carry more than one row).
 *
 * Each workload runs in both modes back to back (NORMAL, FULL, then FULL,
 * NORMAL in the next run). Prints the median of BENCH_RUNS runs per mode and
 * the median of the paired FULL ÷ NORMAL ratios as a Markdown table, and the
 * disk's fdatasync latency (median of 200 4-KiB writes) for context.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateToLatest } from "../db/client";
import { seedProjects } from "./seed-projects";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000);
const CREATES = Number(process.env.BENCH_CREATES ?? 200);
const MODES = ["NORMAL", "FULL"] as const;
type Mode = (typeof MODES)[number];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-bench-durability-"));
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "production";

const { db, sqlite, closeDb } = await import("~/db.server");
const { createProject } = await import("~/domain/projects/projects.server");
type Actor = import("~/domain/actor").Actor;

await migrateToLatest(db);
const seeded = await seedProjects(db, { count: 0, orgName: "Durable Corp" });
const owner = seeded.users.find((u) => u.role === "owner")!;
const actor: Actor = {
  user: { id: owner.id, email: owner.email, name: owner.name, emailVerified: true, timezone: "UTC" },
  org: { id: seeded.orgId, name: "Durable Corp", plan: "enterprise" },
  role: "owner",
  via: "session",
  isSuperadmin: false,
  ip: null,
  userAgent: null,
};

const conn = sqlite();
conn.exec("CREATE TABLE IF NOT EXISTS bench_rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
const insert = conn.prepare("INSERT INTO bench_rows (body) VALUES (?)");
const body = "an acknowledged write must survive a power loss ".repeat(4);
const inOneTransaction = conn.transaction((n: number) => {
  for (let i = 0; i < n; i++) insert.run(body);
});

function setMode(mode: Mode) {
  conn.pragma(`synchronous = ${mode}`);
  const value = conn.pragma("synchronous", { simple: true });
  if (value !== (mode === "FULL" ? 2 : 1)) throw new Error(`synchronous is ${value}, wanted ${mode}`);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
/** Operations per second of `count` calls of `op`. */
async function rate(count: number, op: (i: number) => unknown) {
  const started = performance.now();
  for (let i = 0; i < count; i++) await op(i);
  return (count * 1000) / (performance.now() - started);
}

type Workload = "insert" | "create" | "batch10" | "batch100";
const results: Record<Mode, Record<Workload, number[]>> = {
  NORMAL: { insert: [], create: [], batch10: [], batch100: [] },
  FULL: { insert: [], create: [], batch10: [], batch100: [] },
};
let created = 0;

// One warm-up pass in each mode (statement preparation, page cache, first checkpoint).
for (const mode of MODES) {
  setMode(mode);
  await rate(100, () => insert.run(body));
  await rate(20, () => createProject(actor, { name: `Warm-up ${created++}`, description: "warm-up" }));
}

/** Each workload, per second; batched ones in rows per second over 100 commits of 10 and 100 rows. */
const WORKLOADS: Record<Workload, () => Promise<number>> = {
  insert: () => rate(ROWS, () => insert.run(body)),
  create: () => rate(CREATES, () => createProject(actor, { name: `Durable project ${created++}`, description: "Measured by scripts/bench-durability.ts" })),
  batch10: async () => (await rate(100, () => inOneTransaction(10))) * 10,
  batch100: async () => (await rate(100, () => inOneTransaction(100))) * 100,
};
/** FULL ÷ NORMAL of the two measurements taken back to back (the machine's noise moves both). */
const ratios: Record<Workload, number[]> = { insert: [], create: [], batch10: [], batch100: [] };

for (let run = 0; run < RUNS; run++) {
  for (const key of Object.keys(WORKLOADS) as Workload[]) {
    // NORMAL and FULL back to back, alternating which goes first.
    const order = run % 2 === 0 ? MODES : ([...MODES].reverse() as Mode[]);
    const pair = {} as Record<Mode, number>;
    for (const mode of order) {
      setMode(mode);
      pair[mode] = await WORKLOADS[key]();
      results[mode][key].push(pair[mode]);
    }
    ratios[key].push(pair.FULL / pair.NORMAL);
  }
  process.stdout.write(".");
}
console.log();

// The disk itself: one 4 KiB write + fdatasync, what every FULL commit pays at least once.
const probe = path.join(dataDir, "fsync-probe");
const fd = fs.openSync(probe, "w");
const page = Buffer.alloc(4096, 1);
const syncs: number[] = [];
for (let i = 0; i < 200; i++) {
  fs.writeSync(fd, page, 0, page.length, (i % 16) * 4096);
  const started = performance.now();
  fs.fdatasyncSync(fd);
  syncs.push(performance.now() - started);
}
fs.closeSync(fd);

const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const rows: [string, Workload, string][] = [
  ["single-row insert transactions", "insert", "commits/s"],
  ["createProject (realistic write)", "create", "projects/s"],
  ["inserts, 10 rows per transaction", "batch10", "rows/s"],
  ["inserts, 100 rows per transaction", "batch100", "rows/s"],
];
console.log(
  `\n${RUNS} runs per mode (median), ${ROWS} rows / ${CREATES} creates per run, ${os.cpus().length} cores, Node ${process.version}, ` +
    `fdatasync of 4 KiB: median ${median(syncs).toFixed(2)} ms, p90 ${[...syncs].sort((a, b) => a - b)[Math.floor(syncs.length * 0.9)]!.toFixed(2)} ms\n`,
);
console.log("| write | NORMAL | FULL | FULL / NORMAL (paired) | ms per commit, NORMAL → FULL |");
console.log("|---|---|---|---|---|");
for (const [label, key, unit] of rows) {
  const normal = median(results.NORMAL[key]);
  const full = median(results.FULL[key]);
  const perCommit = (r: number) => (1000 / (key === "batch10" ? r / 10 : key === "batch100" ? r / 100 : r)).toFixed(2);
  console.log(
    `| ${label} | ${fmt(normal)} ${unit} | ${fmt(full)} ${unit} | ${(median(ratios[key]) * 100).toFixed(0)}% | ${perCommit(normal)} → ${perCommit(full)} |`,
  );
}
console.log("\nEvery run (per second):");
for (const mode of MODES)
  console.log(
    `  ${mode}: ${Object.entries(results[mode])
      .map(([k, v]) => `${k} ${v.map(fmt).join(" / ")}`)
      .join("; ")}`,
  );

await closeDb();
fs.rmSync(dataDir, { recursive: true, force: true });
