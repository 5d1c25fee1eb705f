import { appUrl as configuredAppUrl, config } from "~/config.server";
import { db, sqlite } from "~/db.server";
import { drainEvents } from "~/domain/events/dispatch.server";
import { STATUS_LABELS, type ProjectStatus } from "~/domain/projects/projects.schema";
import { ensureSystemTemplates } from "~/domain/templates/system.server";
import { findUserByEmail } from "~/domain/users/users.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { decrypt } from "~/utils/crypto.server";
import { migrateToLatest } from "../../client";
import { inOneTransaction } from "../../nested-transactions";
import { createPeople } from "./accounts";
import { DEMO_EMAIL, DEMO_ORG_NAME, demoPassword, PEOPLE } from "./people";
import { DEMO_PROJECTS } from "./projects";
import { discuss, runAiTools, shareForReview, signOff } from "./reviews";
import { buildProjects, createOrgTemplate } from "./workspace";

/**
 * The demo workspace of `npm run db:seed`: the organization "Acme Robotics"
 * (Enterprise plan) with five people, seven projects from draft to shipped,
 * generated PRDs with versions, comments, a share link with stakeholder
 * reviews, AI tool results, a sign-off workflow and notifications. Runs once:
 * when demo@example.com exists it changes nothing and says what is there.
 *
 * The people sign in with a password made for this seed and printed once
 * (never a published one). It refuses, writing nothing, with NODE_ENV=production
 * or on a database that already holds other organizations, unless forced:
 * its accounts are there for anyone who reads the output. Everything it writes
 * is one transaction: a failure halfway (a running server holding the write
 * lock past the busy timeout, say) leaves no account behind.
 */

export interface SeedOptions {
  appUrl?: string;
  /** The people's password; a fresh random one when absent. */
  password?: string;
  /** Seed even in production or next to other organizations (`npm run db:seed -- --force`). */
  force?: boolean;
}

/** The seed would not run: nothing was written. */
export class SeedRefused extends Error {}

export interface DemoSeedResult {
  /** False when the demo workspace was already there (nothing was written). */
  created: boolean;
  orgId: string;
  appUrl: string;
  email: string;
  /** The password made for this seed; null when the workspace was already there (it was printed when it was made). */
  password: string | null;
  people: { name: string; email: string; role: string }[];
  projects: { id: string; name: string; status: ProjectStatus }[];
  shareUrl: string | null;
  comments: number;
  notifications: number;
  /** Present when the organization has fewer projects than the seed makes (an interrupted run). */
  incomplete?: string;
  ms: number;
}

export async function seedDemo(options: SeedOptions = {}): Promise<DemoSeedResult> {
  const started = performance.now();
  await migrateToLatest(db);
  const appUrl = options.appUrl ?? configuredAppUrl();
  const existing = await findUserByEmail(DEMO_EMAIL);
  if (existing) return describeExisting(existing.id, appUrl, started);
  if (!options.force) await refuseUnlessSafe();

  const password = options.password ?? demoPassword();
  const meta = { ip: null, userAgent: "demo-seed", appUrl };
  const { orgId, shareUrl } = await inOneTransaction(sqlite(), async () => {
    await ensureSystemTemplates();
    const { orgId, actors } = await createPeople(meta, password);
    const templateId = await createOrgTemplate(actors);
    const ids = await buildProjects(actors, templateId);
    await discuss(actors, ids);
    const { shareUrl } = await shareForReview(actors, ids, appUrl);
    await runAiTools(actors, ids);
    await signOff(actors, ids);
    // Notifications come from the outbox events (mentions, replies, assignments, status changes), as the worker would make them.
    registerBackgroundWork();
    await drainEvents();
    return { orgId, shareUrl };
  });
  return { created: true, appUrl, ...(await summary(orgId)), password, shareUrl, ms: Math.round(performance.now() - started) };
}

/** Refuses in production and on a database that other organizations use: the demo's accounts are for anyone who reads the output. */
async function refuseUnlessSafe() {
  if (config().NODE_ENV === "production") {
    throw new SeedRefused(
      "NODE_ENV is production: the demo adds five accounts and an Enterprise owner to this database. Nothing was written. " +
        "Seed a separate data directory instead (DATA_DIR=./demo-data npm run db:seed), or add --force to seed this one anyway.",
    );
  }
  const orgs = await db
    .selectFrom("organizations")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  if (Number(orgs.n) > 0) {
    throw new SeedRefused(
      `This database already has ${orgs.n} organization${Number(orgs.n) === 1 ? "" : "s"}: the demo adds five accounts and an Enterprise owner next to them. ` +
        "Nothing was written. Seed a separate data directory instead (DATA_DIR=./demo-data npm run db:seed), or add --force to seed this one anyway.",
    );
  }
}

async function summary(orgId: string) {
  const people = await db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select(["u.name", "u.email", "m.role"])
    .where("m.orgId", "=", orgId)
    .orderBy("m.createdAt")
    .execute();
  const projects = await db
    .selectFrom("projects")
    .select(["id", "name", "status"])
    .where("orgId", "=", orgId)
    .orderBy("statusRank", "desc")
    .orderBy("name")
    .execute();
  const comments = await db
    .selectFrom("comments as c")
    .innerJoin("projects as p", "p.id", "c.projectId")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("p.orgId", "=", orgId)
    .executeTakeFirstOrThrow();
  const notifications = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("orgId", "=", orgId)
    .executeTakeFirstOrThrow();
  return {
    orgId,
    email: DEMO_EMAIL,
    password: null,
    people: people.map((p) => ({ name: p.name, email: p.email, role: p.role })),
    projects: projects.map((p) => ({ id: p.id, name: p.name, status: p.status as ProjectStatus })),
    comments: Number(comments.n),
    notifications: Number(notifications.n),
  };
}

async function describeExisting(userId: string, appUrl: string, started: number): Promise<DemoSeedResult> {
  const org = await db
    .selectFrom("memberships as m")
    .innerJoin("organizations as o", "o.id", "m.orgId")
    .select("o.id")
    .where("m.userId", "=", userId)
    .where("m.role", "=", "owner")
    .where("o.name", "=", DEMO_ORG_NAME)
    .executeTakeFirst();
  if (!org) {
    throw new Error(
      `${DEMO_EMAIL} already exists but owns no "${DEMO_ORG_NAME}" organization (an account made by hand, or by an older demo seed). ` +
        "Seed into a fresh data directory instead, e.g. DATA_DIR=./demo-data npm run db:seed.",
    );
  }
  const share = await db
    .selectFrom("projectShares as s")
    .innerJoin("projects as p", "p.id", "s.projectId")
    .select("s.tokenEncrypted")
    .where("p.orgId", "=", org.id)
    .executeTakeFirst();
  const token = share ? decrypt(share.tokenEncrypted) : null;
  const result = await summary(org.id);
  const incomplete =
    result.projects.length < DEMO_PROJECTS.length
      ? `it has ${result.projects.length} of the ${DEMO_PROJECTS.length} demo projects (an interrupted run?); seed a fresh data directory for the whole demo`
      : undefined;
  return {
    created: false,
    appUrl,
    ...result,
    shareUrl: token ? `${appUrl}/share/${encodeURIComponent(token)}` : null,
    incomplete,
    ms: Math.round(performance.now() - started),
  };
}

/** The lines `npm run db:seed` prints. */
export function describeSeed(r: DemoSeedResult) {
  const lines = [
    r.created
      ? `Created the demo organization "${DEMO_ORG_NAME}" (Enterprise plan) in ${(r.ms / 1000).toFixed(1)} s.`
      : `The demo organization "${DEMO_ORG_NAME}" already exists: nothing was changed.`,
  ];
  if (r.incomplete) lines.push(`Warning: ${r.incomplete}.`);
  lines.push("", r.password ? "People (all with the password below):" : "People:");
  for (const p of r.people) lines.push(`  ${p.role.padEnd(7)} ${p.name.padEnd(14)} ${p.email}`);
  lines.push("", "Projects:");
  for (const p of r.projects) lines.push(`  ${STATUS_LABELS[p.status].padEnd(14)} ${p.name}`);
  lines.push(
    "",
    `Also: ${r.comments} comments, ${r.notifications} notifications, an organization template, two stakeholder reviews, a sign-off workflow with a pending request.`,
  );
  if (r.shareUrl) lines.push(`Share link (no sign-in): ${r.shareUrl}`);
  lines.push("", `Sign in at ${r.appUrl}/sign-in as ${PEOPLE[0]!.name}, the owner:`, `  e-mail:   ${r.email}`);
  if (r.password) lines.push(`  password: ${r.password}`, "", "This password is shown only now: keep it (every demo account has it).");
  else
    lines.push(
      "  password: the one printed when the demo was made. Lost it? Use Forgot password on the sign-in page",
      "  and read the link with npm run mail:outbox -- demo@example.com (docs/demo.md).",
    );
  return lines.join("\n");
}
