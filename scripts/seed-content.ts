/** Deterministic, varied text for seeded projects (names, descriptions, PRDs). */
import type { Priority, ProjectStatus } from "../app/domain/projects/projects.schema";

// ---------------------------------------------------------------------------
// Deterministic text generation

export function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rng = () => number;
export const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
export const chance = (rng: Rng, p: number) => rng() < p;
export function weighted<T>(rng: Rng, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((s, [, w]) => s + w, 0);
  let r = rng() * total;
  for (const [value, w] of entries) {
    r -= w;
    if (r < 0) return value;
  }
  return entries[entries.length - 1]![0];
}
export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const AREAS = [
  "checkout",
  "onboarding",
  "billing",
  "payments",
  "search",
  "notifications",
  "dashboard",
  "reporting",
  "analytics",
  "mobile app",
  "admin console",
  "user profile",
  "permissions",
  "audit log",
  "inventory",
  "shipping",
  "returns",
  "subscriptions",
  "invoicing",
  "pricing page",
  "marketplace",
  "messaging",
  "calendar",
  "file uploads",
  "integrations",
  "public API",
  "webhooks",
  "data export",
  "data import",
  "single sign-on",
  "two-factor authentication",
  "password reset",
  "team management",
  "workspace settings",
  "help center",
  "customer support",
  "feedback widget",
  "referral program",
  "loyalty rewards",
  "gift cards",
  "tax calculation",
  "currency conversion",
  "localization",
  "accessibility",
  "dark mode",
  "offline mode",
  "push notifications",
  "email digests",
  "activity feed",
  "comments",
  "approvals",
  "document editor",
  "template library",
  "roadmap view",
  "kanban board",
  "time tracking",
  "expense reports",
  "payroll",
  "recruiting pipeline",
  "vendor portal",
  "partner portal",
  "warehouse scanner",
  "fleet tracking",
  "appointment booking",
  "video calls",
  "chatbot",
  "recommendations",
  "product catalog",
  "wishlist",
  "shopping cart",
  "order history",
  "fraud detection",
  "risk scoring",
  "compliance reports",
  "data retention",
  "usage metering",
  "rate limiting",
  "status page",
  "incident response",
  "feature flags",
  "A/B testing",
];

const VERBS = [
  "Redesign",
  "Revamp",
  "Launch",
  "Rebuild",
  "Simplify",
  "Improve",
  "Automate",
  "Migrate",
  "Scale",
  "Streamline",
  "Modernize",
  "Introduce",
  "Personalize",
  "Harden",
  "Speed up",
  "Unify",
  "Extend",
  "Overhaul",
];

const QUALIFIERS = [
  "v2",
  "for enterprise",
  "for mobile",
  "for small teams",
  "MVP",
  "phase 2",
  "beta",
  "for EMEA",
  "for APAC",
  "in the Americas",
  "2.0",
  "pilot",
  "GA",
  "for partners",
  "for admins",
  "self-serve",
];

const NOUNS = [
  "conversion",
  "retention",
  "latency",
  "churn",
  "engagement",
  "adoption",
  "accuracy",
  "throughput",
  "reliability",
  "trust",
  "revenue",
  "activation",
  "satisfaction",
  "discoverability",
  "compliance",
  "security",
  "performance",
  "usability",
  "consistency",
  "visibility",
];

const PERSONAS = [
  "first-time buyers",
  "power users",
  "account administrators",
  "finance teams",
  "support agents",
  "warehouse staff",
  "field technicians",
  "store managers",
  "new employees",
  "enterprise customers",
  "developers",
  "partners",
  "sales representatives",
  "marketing managers",
  "mobile shoppers",
  "auditors",
];

const TECH = [
  "PostgreSQL",
  "SQLite",
  "Redis",
  "Kafka",
  "GraphQL",
  "REST",
  "WebSockets",
  "OAuth",
  "SAML",
  "Stripe",
  "Elasticsearch",
  "S3",
  "Kubernetes",
  "React Native",
  "Swift",
  "Kotlin",
  "TypeScript",
  "Node.js",
  "Python",
  "Go",
  "Terraform",
  "Snowflake",
  "BigQuery",
  "Segment",
  "Twilio",
  "SendGrid",
  "Okta",
];

const METRICS = [
  "weekly active users",
  "checkout completion rate",
  "time to first value",
  "net promoter score",
  "support ticket volume",
  "p95 latency",
  "error rate",
  "average order value",
  "monthly recurring revenue",
  "trial-to-paid conversion",
  "task completion time",
  "feature adoption",
  "daily active teams",
];

const RISKS = [
  "scope creep",
  "data migration errors",
  "vendor lock-in",
  "regulatory review delays",
  "performance regressions",
  "low adoption",
  "security vulnerabilities",
  "unclear ownership",
  "dependency on the platform team",
  "accessibility gaps",
  "translation quality",
  "third-party API limits",
  "legacy browser support",
];

const ACTIONS = [
  "validate",
  "reconcile",
  "deduplicate",
  "throttle",
  "archive",
  "approve",
  "escalate",
  "notify",
  "synchronize",
  "export",
  "import",
  "schedule",
  "forecast",
  "categorize",
  "audit",
  "encrypt",
  "provision",
  "invite",
  "assign",
  "prioritize",
  "retry",
  "cache",
  "paginate",
  "filter",
  "sort",
  "tag",
  "merge",
  "split",
  "refund",
  "authorize",
  "capture",
  "settle",
  "translate",
  "moderate",
  "summarize",
  "preview",
  "publish",
  "roll back",
  "monitor",
  "benchmark",
  "backfill",
  "anonymize",
  "redact",
  "verify",
  "renew",
  "bulk edit",
  "snooze",
  "pin",
  "share",
];

const OBJECTS = [
  "invoices",
  "line items",
  "shipments",
  "purchase orders",
  "refunds",
  "chargebacks",
  "coupons",
  "discount codes",
  "seat licenses",
  "usage records",
  "audit events",
  "API tokens",
  "attachments",
  "mentions",
  "drafts",
  "workflows",
  "approval chains",
  "service tickets",
  "knowledge articles",
  "release notes",
  "feature requests",
  "bug reports",
  "customer segments",
  "cohorts",
  "funnels",
  "alerts",
  "SLAs",
  "escalation policies",
  "time sheets",
  "expense claims",
  "receipts",
  "contracts",
  "quotes",
  "leads",
  "opportunities",
  "renewals",
  "payouts",
  "ledgers",
  "journal entries",
  "tax forms",
  "product variants",
  "SKUs",
  "bundles",
  "pick lists",
  "delivery routes",
  "return labels",
  "loyalty points",
  "vouchers",
  "reviews",
  "ratings",
  "bookmarks",
  "folders",
  "labels",
  "sessions",
  "devices",
  "passkeys",
  "consent records",
  "data subject requests",
  "backups",
  "certificates",
];

const CONSTRAINTS = [
  "within 200 ms",
  "without a page reload",
  "on low-end Android devices",
  "for accounts with 50,000 users",
  "during peak traffic on Black Friday",
  "under GDPR and CCPA",
  "with WCAG 2.2 AA compliance",
  "across time zones",
  "in twelve languages",
  "with a complete audit trail",
  "behind SSO",
  "while offline",
  "with idempotent retries",
  "with zero downtime",
  "in under three clicks",
  "from the command line",
  "on tablets and kiosks",
  "for read-only replicas",
  "with customer-managed encryption keys",
  "without exporting spreadsheets",
];

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ra",
  "zen",
  "tor",
  "vel",
  "qua",
  "shi",
  "no",
  "bel",
  "dra",
  "fi",
  "gor",
  "hex",
  "ion",
  "jun",
  "lux",
  "mar",
  "nex",
  "or",
  "pel",
  "ri",
  "sol",
  "tan",
  "ul",
  "vor",
  "wen",
  "xa",
  "yl",
];

/** Internal codenames and customer names: the long tail of rare words a real index has. */
function codename(rng: Rng) {
  const n = 2 + Math.floor(rng() * 2);
  return cap(Array.from({ length: n }, () => pick(rng, SYLLABLES)).join(""));
}

export function projectName(rng: Rng) {
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

export function description(rng: Rng, area: string) {
  if (chance(rng, 0.1)) return "";
  const n = 1 + Math.floor(rng() * 3);
  return Array.from({ length: n }, () => sentence(rng, area)).join(" ");
}

export function prdContent(rng: Rng, name: string, area: string) {
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

export const STATUS_WEIGHTS: readonly (readonly [ProjectStatus, number])[] = [
  ["DRAFT", 25],
  ["IN_PROGRESS", 22],
  ["READY_FOR_PRD", 8],
  ["IN_REVIEW", 12],
  ["APPROVED", 10],
  ["COMPLETED", 15],
  ["ARCHIVED", 8],
];
export const PRIORITY_WEIGHTS: readonly (readonly [Priority | null, number])[] = [
  [null, 15],
  ["low", 25],
  ["medium", 35],
  ["high", 18],
  ["urgent", 7],
];
