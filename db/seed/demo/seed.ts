import { appUrl as configuredAppUrl } from "~/config.server";
import { db } from "~/db.server";
import { drainEvents } from "~/domain/events/dispatch.server";
import { STATUS_LABELS, type ProjectStatus } from "~/domain/projects/projects.schema";
import { ensureSystemTemplates } from "~/domain/templates/system.server";
import { findUserByEmail } from "~/domain/users/users.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { decrypt } from "~/utils/crypto.server";
import { migrateToLatest } from "../../client";
import { createPeople } from "./accounts";
import { DEMO_EMAIL, DEMO_ORG_NAME, DEMO_PASSWORD, PEOPLE } from "./people";
import { DEMO_PROJECTS } from "./projects";
import { discuss, runAiTools, shareForReview, signOff } from "./reviews";
import { buildProjects, createOrgTemplate } from "./workspace";

/**
 * The demo workspace of `npm run db:seed`: the organization "Acme Robotics"
 * (Enterprise plan) with five people, seven projects from draft to shipped,
 * generated PRDs with versions, comments, a share link with stakeholder
 * reviews, AI tool results, a sign-off workflow and notifications. Runs once:
 * when demo@example.com exists it changes nothing and says what is there.
 */

export interface DemoSeedResult {
  /** False when the demo workspace was already there (nothing was written). */
  created: boolean;
  orgId: string;
  appUrl: string;
  email: string;
  password: string;
  people: { name: string; email: string; role: string }[];
  projects: { id: string; name: string; status: ProjectStatus }[];
  shareUrl: string | null;
  comments: number;
  notifications: number;
  /** Present when the organization has fewer projects than the seed makes (an interrupted run). */
  incomplete?: string;
  ms: number;
}

export async function seedDemo(options: { appUrl?: string } = {}): Promise<DemoSeedResult> {
  const started = performance.now();
  await migrateToLatest(db);
  await ensureSystemTemplates();
  const appUrl = options.appUrl ?? configuredAppUrl();
  const existing = await findUserByEmail(DEMO_EMAIL);
  if (existing) return describeExisting(existing.id, appUrl, started);

  const meta = { ip: null, userAgent: "demo-seed", appUrl };
  const { orgId, actors } = await createPeople(meta);
  const templateId = await createOrgTemplate(actors);
  const ids = await buildProjects(actors, templateId);
  await discuss(actors, ids);
  const { shareUrl } = await shareForReview(actors, ids, appUrl);
  await runAiTools(actors, ids);
  await signOff(actors, ids);
  // Notifications come from the outbox events (mentions, replies, assignments, status changes), as the worker would make them.
  registerBackgroundWork();
  await drainEvents();
  return { created: true, appUrl, ...(await summary(orgId)), shareUrl, ms: Math.round(performance.now() - started) };
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
    password: DEMO_PASSWORD,
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
  lines.push("", "People (every password is the same):");
  for (const p of r.people) lines.push(`  ${p.role.padEnd(7)} ${p.name.padEnd(14)} ${p.email}`);
  lines.push("", "Projects:");
  for (const p of r.projects) lines.push(`  ${STATUS_LABELS[p.status].padEnd(14)} ${p.name}`);
  lines.push(
    "",
    `Also: ${r.comments} comments, ${r.notifications} notifications, an organization template, two stakeholder reviews, a sign-off workflow with a pending request.`,
  );
  if (r.shareUrl) lines.push(`Share link (no sign-in): ${r.shareUrl}`);
  lines.push("", `Sign in at ${r.appUrl}/sign-in as ${PEOPLE[0]!.name}, the owner:`, `  e-mail:   ${r.email}`, `  password: ${r.password}`);
  return lines.join("\n");
}
