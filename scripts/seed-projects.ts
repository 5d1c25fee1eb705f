/**
 * Seeds an organization on the enterprise plan with many projects (default
 * 10,000) for benchmarks and for trying search and the project list at scale.
 *
 *   DATA_DIR=./data npx tsx scripts/seed-projects.ts [count]
 *
 * Rows are inserted directly with kysely in batched transactions (3–4 s for
 * 10,000 projects on 2 cores) and every project gets its projectSearch row
 * (rowid = projects.seq) exactly as app/domain/search/search-index.server.ts
 * writes it: name, description and the PRD content ('' without a PRD).
 * `seedProjects` is also used by scripts/bench-projects.ts.
 * Everything is derived from a seeded PRNG, so a given seed gives the same text.
 */
import crypto from "node:crypto";
import path from "node:path";
import type { Insertable, Kysely } from "kysely";
import { hashPassword } from "../app/domain/auth/password.server";
import { priorityRank, statusRank } from "../app/domain/projects/projects.schema";
import type { Database, Role } from "../db/schema";
import { AREAS, PRIORITY_WEIGHTS, STATUS_WEIGHTS, chance, description, mulberry32, pick, prdContent, projectName, weighted } from "./seed-content";

export interface SeedProjectsOptions {
  /** Number of projects (default 10,000). */
  count?: number;
  /** Password of every seeded user (default "Bench-Mark-123"). */
  password?: string;
  /** PRNG seed (default 42). */
  seed?: number;
  /** Share of projects that get a PRD (default 0.6). */
  prdShare?: number;
  orgName?: string;
  /** Projects per transaction (default 1,000). */
  batchSize?: number;
  log?: (message: string) => void;
}

export interface SeededUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export interface SeedProjectsResult {
  orgId: string;
  orgSlug: string;
  password: string;
  users: SeededUser[];
  /** The member with the most assigned projects (sign in as this one for assignedToMe). */
  member: SeededUser;
  viewer: SeededUser;
  projects: number;
  prds: number;
  ms: number;
}

// ---------------------------------------------------------------------------

const PEOPLE: { name: string; role: Role; local: string }[] = [
  { name: "Olivia Owner", role: "owner", local: "owner" },
  { name: "Adam Admin", role: "admin", local: "admin" },
  { name: "Maya Member", role: "member", local: "maya" },
  { name: "Noah Member", role: "member", local: "noah" },
  { name: "Lena Member", role: "member", local: "lena" },
  { name: "Victor Viewer", role: "viewer", local: "viewer" },
];

export async function seedProjects(db: Kysely<Database>, options: SeedProjectsOptions = {}): Promise<SeedProjectsResult> {
  const started = performance.now();
  const count = options.count ?? 10_000;
  const password = options.password ?? "Bench-Mark-123";
  const rng = mulberry32(options.seed ?? 42);
  const prdShare = options.prdShare ?? 0.6;
  const batchSize = options.batchSize ?? 1_000;
  const log = options.log ?? (() => {});
  const now = new Date();
  const nowIso = now.toISOString();
  const suffix = crypto.randomBytes(3).toString("hex");
  const orgSlug = `scale-${suffix}`;
  const orgId = crypto.randomUUID();
  const passwordHash = await hashPassword(password);

  const users: SeededUser[] = PEOPLE.map((p) => ({
    id: crypto.randomUUID(),
    email: `${p.local}+${suffix}@scale.example.com`,
    name: p.name,
    role: p.role,
  }));
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("organizations")
      .values({
        id: orgId,
        name: options.orgName ?? `Scale Corp ${suffix}`,
        slug: orgSlug,
        plan: "enterprise",
        settings: "{}",
        createdAt: nowIso,
        updatedAt: nowIso,
      })
      .execute();
    await trx
      .insertInto("users")
      .values(
        users.map((u) => ({
          id: u.id,
          email: u.email,
          name: u.name,
          passwordHash,
          emailVerifiedAt: nowIso,
          timezone: "UTC",
          failedSignInCount: 0,
          firstFailedSignInAt: null,
          lockedUntil: null,
          createdAt: nowIso,
          updatedAt: nowIso,
        })),
      )
      .execute();
    await trx
      .insertInto("memberships")
      .values(users.map((u) => ({ id: crypto.randomUUID(), orgId, userId: u.id, role: u.role, createdAt: nowIso })))
      .execute();
  });

  const editors = users.filter((u) => u.role !== "viewer");
  const member = users.find((u) => u.role === "member")!;
  const viewer = users.find((u) => u.role === "viewer")!;
  // Maya gets the largest share of assignments.
  const assigneeWeights: readonly (readonly [SeededUser | null, number])[] = [[null, 20], ...editors.map((u) => [u, u === member ? 30 : 12] as const)];

  const maxSeq = await db
    .selectFrom("projects")
    .select((eb) => eb.fn.max("seq").as("m"))
    .executeTakeFirst();
  let seq = Number(maxSeq?.m ?? 0);
  const twoYears = 730 * 86_400_000;
  let prds = 0;

  for (let start = 0; start < count; start += batchSize) {
    const n = Math.min(batchSize, count - start);
    const projects: Insertable<Database["projects"]>[] = [];
    const search: Database["projectSearch"][] = [];
    const history: Database["projectStatusHistory"][] = [];
    const prdRows: Database["prds"][] = [];
    const versions: Database["prdVersions"][] = [];
    const collaborators: Database["projectCollaborators"][] = [];
    for (let i = 0; i < n; i++) {
      seq += 1;
      const name = projectName(rng);
      const area = AREAS.find((a) => name.toLowerCase().includes(a.toLowerCase())) ?? pick(rng, AREAS);
      const desc = description(rng, area);
      const status = weighted(rng, STATUS_WEIGHTS);
      const priority = weighted(rng, PRIORITY_WEIGHTS);
      const assignee = weighted(rng, assigneeWeights);
      const creator = pick(rng, editors);
      const createdMs = now.getTime() - Math.floor(rng() * twoYears);
      const updatedMs = createdMs + Math.floor(rng() * (now.getTime() - createdMs));
      const createdAt = new Date(createdMs).toISOString();
      const updatedAt = new Date(updatedMs).toISOString();
      const id = crypto.randomUUID();
      projects.push({
        seq,
        id,
        orgId,
        name,
        description: desc,
        status,
        statusRank: statusRank(status),
        priority,
        priorityRank: priorityRank(priority),
        templateId: null,
        assignedToId: assignee?.id ?? null,
        createdById: creator.id,
        revision: 1 + Math.floor(rng() * 6),
        createdAt,
        updatedAt,
      });
      history.push({ id: crypto.randomUUID(), projectId: id, fromStatus: null, toStatus: status, changedById: creator.id, createdAt });
      let content = "";
      if (chance(rng, prdShare)) {
        content = prdContent(rng, name, area);
        const versionId = crypto.randomUUID();
        versions.push({
          id: versionId,
          projectId: id,
          number: 1,
          content,
          style: pick(rng, ["comprehensive", "technical", "business", "lean", "agile"]),
          label: null,
          source: "create",
          createdById: creator.id,
          createdAt: updatedAt,
        });
        prdRows.push({
          projectId: id,
          content,
          style: versions[versions.length - 1]!.style,
          currentVersionId: versionId,
          updatedById: creator.id,
          createdAt: updatedAt,
          updatedAt,
        });
        prds += 1;
      }
      // The viewer collaborates on about 2% of the projects.
      if (chance(rng, 0.02)) {
        collaborators.push({
          id: crypto.randomUUID(),
          projectId: id,
          userId: viewer.id,
          role: pick(rng, ["viewer", "commenter", "editor"] as const),
          addedById: creator.id,
          createdAt: updatedAt,
        });
      }
      // Same row as indexProject(): name, description, PRD content or ''.
      search.push({ rowid: seq, name, description: desc, content });
    }
    await db.transaction().execute(async (trx) => {
      for (const chunk of chunks(projects, 500)) await trx.insertInto("projects").values(chunk).execute();
      for (const chunk of chunks(history, 1000)) await trx.insertInto("projectStatusHistory").values(chunk).execute();
      for (const chunk of chunks(versions, 500)) await trx.insertInto("prdVersions").values(chunk).execute();
      for (const chunk of chunks(prdRows, 500)) await trx.insertInto("prds").values(chunk).execute();
      for (const chunk of chunks(collaborators, 500)) await trx.insertInto("projectCollaborators").values(chunk).execute();
      for (const chunk of chunks(search, 500)) await trx.insertInto("projectSearch").values(chunk).execute();
    });
    log(`seeded ${start + n}/${count} projects`);
  }
  // No ANALYZE and no FTS5 'optimize': the database stays as the app would
  // leave it, so benchmarks see the query plans production gets.

  return {
    orgId,
    orgSlug,
    password,
    users,
    member,
    viewer,
    projects: count,
    prds,
    ms: Math.round(performance.now() - started),
  };
}

function* chunks<T>(items: T[], size: number) {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

// ---------------------------------------------------------------------------
// CLI: DATA_DIR=./data npx tsx scripts/seed-projects.ts [count]

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const { createDb, migrateToLatest } = await import("../db/client");
  const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
  const { db } = createDb(path.join(dataDir, "app.db"));
  await migrateToLatest(db);
  const count = Number(process.argv[2] ?? 10_000);
  if (!Number.isInteger(count) || count < 1) {
    console.error("Usage: npx tsx scripts/seed-projects.ts [count]");
    process.exit(1);
  }
  const log = process.stdout.isTTY ? (m: string) => process.stdout.write(`\r${m}`) : undefined;
  const result = await seedProjects(db, { count, log });
  console.log(`\nSeeded ${result.projects} projects (${result.prds} with a PRD) in ${result.ms} ms into ${dataDir}`);
  console.log(`Organization ${result.orgSlug} (enterprise). Every user's password: ${result.password}`);
  for (const u of result.users) console.log(`  ${u.role.padEnd(6)} ${u.email}`);
  await db.destroy();
}
