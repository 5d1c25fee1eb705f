import { sql } from "kysely";
import type { Role } from "#db/schema";
import { db } from "~/db.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { readableProjects } from "../projects/access.server";
import { presentProject } from "../projects/present.server";
import { PROJECT_STATUSES, STATUS_LABELS, type ProjectStatus } from "../projects/projects.schema";
import { fillDays, sinceIso } from "./days";

export const TIMELINE_DAYS = 30;
const ROLES: Role[] = ["owner", "admin", "member", "viewer"];

/** The organization's administration dashboard (Admin or Owner). */
export async function adminDashboard(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "view the administration dashboard");
  const orgId = actor.org.id;

  const statusRows = await db
    .selectFrom("projects as p")
    .select(["p.status", (eb) => eb.fn.countAll<number>().as("n")])
    .where(readableProjects(actor))
    .groupBy("p.status")
    .execute();
  const counts = new Map(statusRows.map((r) => [r.status, Number(r.n)]));
  const total = statusRows.reduce((sum, r) => sum + Number(r.n), 0);
  const created = async (days: number) =>
    Number(
      (
        await db
          .selectFrom("projects as p")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where(readableProjects(actor))
          .where("p.createdAt", ">=", sinceIso(days))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const recent = await db
    .selectFrom("projects as p")
    .selectAll("p")
    .where(readableProjects(actor))
    .orderBy("p.createdAt", "desc")
    .orderBy("p.seq", "desc")
    .limit(5)
    .execute();

  const members = await db
    .selectFrom("memberships as m")
    .leftJoin("userProfiles as up", "up.userId", "m.userId")
    .select(["m.role", "up.lastActiveAt"])
    .where("m.orgId", "=", orgId)
    .execute();
  const activeSince = (days: number) => {
    const since = sinceIso(days);
    return members.filter((m) => m.lastActiveAt && m.lastActiveAt >= since).length;
  };
  const byRole = Object.fromEntries(ROLES.map((r) => [r, members.filter((m) => m.role === r).length])) as Record<Role, number>;

  const activityRows = await db
    .selectFrom("projectActivity as a")
    .innerJoin("projects as p", "p.id", "a.projectId")
    .select([sql<string>`substr(a.createdAt, 1, 10)`.as("day"), (eb) => eb.fn.countAll<number>().as("n")])
    .where(readableProjects(actor))
    .where("a.createdAt", ">=", sinceIso(TIMELINE_DAYS))
    .groupBy("day")
    .execute();

  return {
    projects: {
      total,
      createdLast7Days: await created(7),
      createdLast30Days: await created(30),
      byStatus: PROJECT_STATUSES.map((status: ProjectStatus) => ({ status, label: STATUS_LABELS[status], count: counts.get(status) ?? 0 })),
    },
    recentProjects: recent.map(presentProject),
    users: {
      total: members.length,
      byRole,
      activeLast7Days: activeSince(7),
      activeLast30Days: activeSince(30),
    },
    activity: fillDays(TIMELINE_DAYS, new Map(activityRows.map((r) => [r.day, { count: Number(r.n) }])), () => ({ count: 0 })),
  };
}
