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
import {
  type Priority,
  type ProjectStatus,
  priorityRank,
  statusRank,
} from "../app/domain/projects/projects.schema";
import type { Database, Role } from "../db/schema";

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
// Deterministic text generation

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const chance = (rng: Rng, p: number) => rng() < p;
function weighted<T>(rng: Rng, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((s, [, w]) => s + w, 0);
  let r = rng() * total;
  for (const [value, w] of entries) {
    r -= w;
    if (r < 0) return value;
  }
  return entries[entries.length - 1]![0];
}
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const AREAS = [
  "checkout", "onboarding", "billing", "payments", "search", "notifications", "dashboard", "reporting",
  "analytics", "mobile app", "admin console", "user profile", "permissions", "audit log", "inventory",
  "shipping", "returns", "subscriptions", "invoicing", "pricing page", "marketplace", "messaging",
  "calendar", "file uploads", "integrations", "public API", "webhooks", "data export", "data import",
  "single sign-on", "two-factor authentication", "password reset", "team management", "workspace settings",
  "help center", "customer support", "feedback widget", "referral program", "loyalty rewards", "gift cards",
  "tax calculation", "currency conversion", "localization", "accessibility", "dark mode", "offline mode",
  "push notifications", "email digests", "activity feed", "comments", "approvals", "document editor",
  "template library", "roadmap view", "kanban board", "time tracking", "expense reports", "payroll",
  "recruiting pipeline", "vendor portal", "partner portal", "warehouse scanner", "fleet tracking",
  "appointment booking", "video calls", "chatbot", "recommendations", "product catalog", "wishlist",
  "shopping cart", "order history", "fraud detection", "risk scoring", "compliance reports", "data retention",
  "usage metering", "rate limiting", "status page", "incident response", "feature flags", "A/B testing",
];

const VERBS = [
  "Redesign", "Revamp", "Launch", "Rebuild", "Simplify", "Improve", "Automate", "Migrate", "Scale",
  "Streamline", "Modernize", "Introduce", "Personalize", "Harden", "Speed up", "Unify", "Extend", "Overhaul",
];

const QUALIFIERS = [
  "v2", "for enterprise", "for mobile", "for small teams", "MVP", "phase 2", "beta", "for EMEA",
  "for APAC", "in the Americas", "2.0", "pilot", "GA", "for partners", "for admins", "self-serve",
];

const NOUNS = [
  "conversion", "retention", "latency", "churn", "engagement", "adoption", "accuracy", "throughput",
  "reliability", "trust", "revenue", "activation", "satisfaction", "discoverability", "compliance",
  "security", "performance", "usability", "consistency", "visibility",
];

const PERSONAS = [
  "first-time buyers", "power users", "account administrators", "finance teams", "support agents",
  "warehouse staff", "field technicians", "store managers", "new employees", "enterprise customers",
  "developers", "partners", "sales representatives", "marketing managers", "mobile shoppers", "auditors",
];

const TECH = [
  "PostgreSQL", "SQLite", "Redis", "Kafka", "GraphQL", "REST", "WebSockets", "OAuth", "SAML", "Stripe",
  "Elasticsearch", "S3", "Kubernetes", "React Native", "Swift", "Kotlin", "TypeScript", "Node.js",
  "Python", "Go", "Terraform", "Snowflake", "BigQuery", "Segment", "Twilio", "SendGrid", "Okta",
];

const METRICS = [
  "weekly active users", "checkout completion rate", "time to first value", "net promoter score",
  "support ticket volume", "p95 latency", "error rate", "average order value", "monthly recurring revenue",
  "trial-to-paid conversion", "task completion time", "feature adoption", "daily active teams",
];

const RISKS = [
  "scope creep", "data migration errors", "vendor lock-in", "regulatory review delays", "performance regressions",
  "low adoption", "security vulnerabilities", "unclear ownership", "dependency on the platform team",
  "accessibility gaps", "translation quality", "third-party API limits", "legacy browser support",
];

const ACTIONS = [
  "validate", "reconcile", "deduplicate", "throttle", "archive", "approve", "escalate", "notify", "synchronize",
  "export", "import", "schedule", "forecast", "categorize", "audit", "encrypt", "provision", "invite", "assign",
  "prioritize", "retry", "cache", "paginate", "filter", "sort", "tag", "merge", "split", "refund", "authorize",
  "capture", "settle", "translate", "moderate", "summarize", "preview", "publish", "roll back", "monitor",
  "benchmark", "backfill", "anonymize", "redact", "verify", "renew", "bulk edit", "snooze", "pin", "share",
];

const OBJECTS = [
  "invoices", "line items", "shipments", "purchase orders", "refunds", "chargebacks", "coupons", "discount codes",
  "seat licenses", "usage records", "audit events", "API tokens", "attachments", "mentions", "drafts", "workflows",
  "approval chains", "service tickets", "knowledge articles", "release notes", "feature requests", "bug reports",
  "customer segments", "cohorts", "funnels", "alerts", "SLAs", "escalation policies", "time sheets",
  "expense claims", "receipts", "contracts", "quotes", "leads", "opportunities", "renewals", "payouts", "ledgers",
  "journal entries", "tax forms", "product variants", "SKUs", "bundles", "pick lists", "delivery routes",
  "return labels", "loyalty points", "vouchers", "reviews", "ratings", "bookmarks", "folders", "labels",
  "sessions", "devices", "passkeys", "consent records", "data subject requests", "backups", "certificates",
];

const CONSTRAINTS = [
  "within 200 ms", "without a page reload", "on low-end Android devices", "for accounts with 50,000 users",
  "during peak traffic on Black Friday", "under GDPR and CCPA", "with WCAG 2.2 AA compliance", "across time zones",
  "in twelve languages", "with a complete audit trail", "behind SSO", "while offline", "with idempotent retries",
  "with zero downtime", "in under three clicks", "from the command line", "on tablets and kiosks",
  "for read-only replicas", "with customer-managed encryption keys", "without exporting spreadsheets",
];

const SYLLABLES = ["ka", "lo", "mi", "ra", "zen", "tor", "vel", "qua", "shi", "no", "bel", "dra", "fi", "gor", "hex", "ion", "jun", "lux", "mar", "nex", "or", "pel", "ri", "sol", "tan", "ul", "vor", "wen", "xa", "yl"];

/** Internal codenames and customer names: the long tail of rare words a real index has. */
function codename(rng: Rng) {
  const n = 2 + Math.floor(rng() * 2);
  return cap(Array.from({ length: n }, () => pick(rng, SYLLABLES)).join(""));
}

function projectName(rng: Rng) {
  if (chance(rng, 0.25)) return `Project ${codename(rng)}: ${baseName(rng)}`;
  return baseName(rng);
}

function baseName(rng: Rng) {
  const area = pick(rng, AREAS);
  const shape = rng();
  if (shape < 0.35) return `${pick(rng, VERBS)} ${area}`;
  if (shape < 0.6) return `${cap(area)} ${pick(rng, QUALIFIERS)}`;
  if (shape < 0.8) return `${pick(rng, VERBS)} ${area} ${pick(rng, QUALIFIERS)}`;
  return `${cap(area)}: better ${pick(rng, NOUNS)} for ${pick(rng, PERSONAS)}`;
}

function sentence(rng: Rng, area: string) {
  const templates = [
    () => `${cap(pick(rng, PERSONAS))} struggle with ${area} today, which hurts ${pick(rng, NOUNS)}.`,
    () => `We want to improve ${pick(rng, NOUNS)} of ${area} by ${5 + Math.floor(rng() * 40)}% this quarter.`,
    () => `The current ${area} flow depends on ${pick(rng, TECH)} and a manual step owned by ${pick(rng, PERSONAS)}.`,
    () => `Success is measured by ${pick(rng, METRICS)} and ${pick(rng, METRICS)}.`,
    () => `The main risk is ${pick(rng, RISKS)}; we mitigate it with a staged rollout behind a feature flag.`,
    () => `Integrate ${area} with ${pick(rng, AREAS)} so that ${pick(rng, PERSONAS)} see one consistent view.`,
    () => `Research with ${3 + Math.floor(rng() * 20)} ${pick(rng, PERSONAS)} showed that ${pick(rng, NOUNS)} matters more than speed.`,
    () => `Out of scope: changes to ${pick(rng, AREAS)} and ${pick(rng, AREAS)}.`,
    () => `Use ${pick(rng, TECH)} for storage and ${pick(rng, TECH)} for delivery; keep ${pick(rng, NOUNS)} in mind.`,
    () => `Users must be able to ${pick(rng, ACTIONS)} ${pick(rng, OBJECTS)} ${pick(rng, CONSTRAINTS)}.`,
    () => `The system should ${pick(rng, ACTIONS)} ${pick(rng, OBJECTS)} automatically when ${pick(rng, OBJECTS)} change.`,
    () => `Admins can ${pick(rng, ACTIONS)} and ${pick(rng, ACTIONS)} ${pick(rng, OBJECTS)} in bulk ${pick(rng, CONSTRAINTS)}.`,
    () => `${cap(pick(rng, PERSONAS))} asked us to ${pick(rng, ACTIONS)} ${pick(rng, OBJECTS)} from the ${area} screen.`,
    () => `${codename(rng)} Inc. and ${codename(rng)} Ltd. requested this in ticket SUP-${1000 + Math.floor(rng() * 90_000)}.`,
  ];
  return pick(rng, templates)();
}

function description(rng: Rng, area: string) {
  if (chance(rng, 0.1)) return "";
  const n = 1 + Math.floor(rng() * 3);
  return Array.from({ length: n }, () => sentence(rng, area)).join(" ");
}

function prdContent(rng: Rng, name: string, area: string) {
  const para = (n: number) => Array.from({ length: n }, () => sentence(rng, area)).join(" ");
  const list = (n: number, make: () => string) => Array.from({ length: n }, () => `- ${make()}`).join("\n");
  const sections = [
    `# ${name}`,
    `## Overview\n\n${para(3 + Math.floor(rng() * 3))}`,
    `## Problem\n\n${para(2 + Math.floor(rng() * 4))}`,
    `## Goals\n\n${list(3 + Math.floor(rng() * 3), () => `Improve ${pick(rng, NOUNS)} for ${pick(rng, PERSONAS)}`)}`,
    `## User stories\n\n${list(3 + Math.floor(rng() * 5), () => `As one of the ${pick(rng, PERSONAS)}, I want ${area} to support ${pick(rng, AREAS)} so that I save time.`)}`,
    `## Requirements\n\n${list(4 + Math.floor(rng() * 6), () => sentence(rng, area))}`,
    `## Success metrics\n\n${list(2 + Math.floor(rng() * 3), () => `${cap(pick(rng, METRICS))}: +${2 + Math.floor(rng() * 30)}%`)}`,
    `## Risks\n\n${list(2 + Math.floor(rng() * 3), () => cap(pick(rng, RISKS)))}`,
  ];
  if (chance(rng, 0.3)) sections.push(`## Technical notes\n\n${para(2 + Math.floor(rng() * 4))}`);
  return sections.join("\n\n");
}

const STATUS_WEIGHTS: readonly (readonly [ProjectStatus, number])[] = [
  ["DRAFT", 25], ["IN_PROGRESS", 22], ["READY_FOR_PRD", 8], ["IN_REVIEW", 12], ["APPROVED", 10],
  ["COMPLETED", 15], ["ARCHIVED", 8],
];
const PRIORITY_WEIGHTS: readonly (readonly [Priority | null, number])[] = [
  [null, 15], ["low", 25], ["medium", 35], ["high", 18], ["urgent", 7],
];

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
  const assigneeWeights: readonly (readonly [SeededUser | null, number])[] = [
    [null, 20],
    ...editors.map((u) => [u, u === member ? 30 : 12] as const),
  ];

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
