/**
 * The pages people open most, at 10,000 projects (docs/benchmarks.md,
 * "Pages at 10,000 projects"): Home (what needs me), the Projects page and
 * the Search page (projects plus comment search), each against a bare
 * baseline measured in the same run (`GET /api/health`), so the figures can
 * be compared across runs on a shared machine. Builds nothing: run
 * `npm run build` first.
 *
 *   npm run build && npm run bench:pages
 *
 * Seeds a fresh DATA_DIR with scripts/seed-projects.ts (10,000 projects, 60 %
 * with a PRD), then BENCH_COMMENTS comments (default 20,000) spread over the
 * projects with a PRD, one in ten mentioning the member the benchmark signs in
 * as, and an activity row per comment (what "Continue where you left off"
 * reads). Starts the production server and loads each page with autocannon
 * (BENCH_CONNECTIONS=10 for BENCH_SECONDS=5), then once more with one
 * connection. Prints a Markdown table; with BENCH_WRITE=1 also writes it into
 * docs/benchmarks.md.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, migrateToLatest } from "../db/client";
import type { Database } from "../db/schema";
import { freePort, load, machine, productionEnv, spawnGroup, stopGroup, waitForOk, writeBlock, signInCookie } from "./bench/harness";
import { seedProjects } from "./seed-projects";

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 10_000);
const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 20_000);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-bench-pages-"));
const dbFile = path.join(dataDir, "app.db");
const { db } = createDb(dbFile);
await migrateToLatest(db);
const seeded = await seedProjects(db, { count: PROJECTS });

// Comments (through the comments table, so the mention triggers of migration 0023 run) and the activity they leave.
const withPrd = await db.selectFrom("prds").select("projectId").execute();
const authors = seeded.users.filter((u) => u.role !== "viewer");
const WORDS = "stripe checkout latency onboarding export roadmap pricing offline audit retention".split(" ");
const started = performance.now();
for (let done = 0; done < COMMENTS; done += 1_000) {
  const comments: Database["comments"][] = [];
  const activity: Database["projectActivity"][] = [];
  for (let i = done; i < Math.min(COMMENTS, done + 1_000); i++) {
    const projectId = withPrd[(i * 7919) % withPrd.length]!.projectId;
    const author = authors[i % authors.length]!;
    const mentions = i % 10 === 0 ? [seeded.member.id] : [];
    const at = new Date(Date.now() - (COMMENTS - i) * 60_000).toISOString();
    comments.push({
      id: crypto.randomUUID(),
      projectId,
      userId: author.id,
      parentId: null,
      content: `${mentions.length ? `@${seeded.member.name} ` : ""}Can we check the ${WORDS[i % WORDS.length]} numbers before review? ${WORDS[(i * 3) % WORDS.length]} matters here.`,
      section: null,
      blockId: null,
      mentions: JSON.stringify(mentions),
      createdAt: at,
      updatedAt: at,
      editedAt: null,
      deletedAt: null,
      quote: null,
      quotePrefix: null,
      quoteSuffix: null,
      resolvedAt: null,
      resolvedBy: null,
    });
    activity.push({
      id: crypto.randomUUID(),
      projectId,
      actorId: author.id,
      actorName: author.name,
      action: "comment.created",
      summary: `${author.name} commented`,
      data: "{}",
      createdAt: at,
    });
  }
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("comments").values(comments).execute();
    await trx.insertInto("projectActivity").values(activity).execute();
  });
}
await db.destroy();
console.log(
  `Seeded ${seeded.projects} projects (${seeded.prds} with a PRD) and ${COMMENTS} comments in ${(seeded.ms + performance.now() - started).toFixed(0)} ms; ` +
    `database ${(fs.statSync(dbFile).size / 1e6).toFixed(0)} MB`,
);

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawnGroup(process.execPath, ["build/server.js"], productionEnv(port, dataDir, { DEFAULT_PLAN: "enterprise" }));
try {
  await waitForOk(`${base}/api/health`);
  const cookie = await signInCookie(base, seeded.member.email, seeded.password);
  const targets = [
    { name: "GET /api/health (baseline)", path: "/api/health" },
    { name: "GET /home", path: "/home" },
    { name: "GET /projects", path: "/projects" },
    { name: "GET /search?q=stripe (projects + comments)", path: "/search?q=stripe" },
    { name: "GET /search?q=checkout latency", path: "/search?q=checkout%20latency" },
  ];
  for (const t of targets) {
    const res = await fetch(base + t.path, { headers: { cookie } });
    if (!res.ok) throw new Error(`${t.path}: ${res.status}`);
  }
  const rows: string[] = [];
  for (const t of targets) {
    const many = await load(base + t.path, { cookie }, CONNECTIONS, DURATION);
    const one = await load(base + t.path, { cookie }, 1, DURATION);
    rows.push(`| ${t.name} | ${many.rps.toFixed(0)} | ${many.p50} | ${many.p99} | ${one.p50} | ${one.p99} | ${many.non2xx + one.non2xx} |`);
  }
  const table = [
    `${PROJECTS.toLocaleString("en")} projects, ${COMMENTS.toLocaleString("en")} comments; signed in as a member; ${machine()}.`,
    "",
    `| page | req/s (${CONNECTIONS} conn.) | p50 ms | p99 ms | p50 ms (1 conn.) | p99 ms (1 conn.) | non-2xx |`,
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
  console.log(`\n${table}\n`);
  if (process.env.BENCH_WRITE) writeBlock("docs/benchmarks.md", "bench-pages", table);
} finally {
  await stopGroup(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
