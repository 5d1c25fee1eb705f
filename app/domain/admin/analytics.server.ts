import { sql } from "kysely";
import { z } from "zod/v4";
import { db } from "~/db.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { usageFor } from "../billing/usage.server";
import { readableProjects } from "../projects/access.server";
import { fillDays, sinceIso } from "./days";

const flag = z.enum(["true", "false", "1", "0"], { error: "Use true or false" }).transform((v) => v === "true" || v === "1");

export const ANALYTICS_DAYS = [7, 30, 90] as const;

export const usageAnalyticsSchema = z.object({
  days: z
    .enum(["7", "30", "90"], { error: "days must be 7, 30 or 90" })
    .default("30")
    .transform((v) => Number(v) as (typeof ANALYTICS_DAYS)[number]),
  userId: z.string().trim().min(1).max(100).optional(),
  projectId: z.string().trim().min(1).max(100).optional(),
  templateMetrics: flag.default(false),
  alerts: flag.default(false),
});
export type UsageAnalyticsQuery = z.infer<typeof usageAnalyticsSchema>;

/** AI calls and tokens, projects created, template use and usage alerts over the last `days` days (Admin or Owner). */
export async function usageAnalytics(actor: Actor, q: UsageAnalyticsQuery) {
  requireRole(actor, ADMIN_ROLES, "view usage analytics");
  const orgId = actor.org.id;
  const since = sinceIso(q.days);

  let ai = db
    .selectFrom("aiCalls")
    .select([
      sql<string>`substr(createdAt, 1, 10)`.as("day"),
      (eb) => eb.fn.countAll<number>().as("calls"),
      sql<number>`coalesce(sum(inputTokens), 0)`.as("inputTokens"),
      sql<number>`coalesce(sum(outputTokens), 0)`.as("outputTokens"),
    ])
    .where("orgId", "=", orgId)
    .where("createdAt", ">=", since);
  if (q.userId) ai = ai.where("userId", "=", q.userId);
  if (q.projectId) ai = ai.where("projectId", "=", q.projectId);
  const aiRows = await ai.groupBy("day").execute();

  let created = db
    .selectFrom("projects as p")
    .select([sql<string>`substr(p.createdAt, 1, 10)`.as("day"), (eb) => eb.fn.countAll<number>().as("n")])
    .where(readableProjects(actor))
    .where("p.createdAt", ">=", since);
  if (q.userId) created = created.where("p.createdById", "=", q.userId);
  if (q.projectId) created = created.where("p.id", "=", q.projectId);
  const createdRows = await created.groupBy("day").execute();

  const aiDays = fillDays(
    q.days,
    new Map(
      aiRows.map((r) => [
        r.day,
        {
          calls: Number(r.calls),
          inputTokens: Number(r.inputTokens),
          outputTokens: Number(r.outputTokens),
          tokens: Number(r.inputTokens) + Number(r.outputTokens),
        },
      ]),
    ),
    () => ({ calls: 0, inputTokens: 0, outputTokens: 0, tokens: 0 }),
  );
  const projectDays = fillDays(q.days, new Map(createdRows.map((r) => [r.day, { count: Number(r.n) }])), () => ({ count: 0 }));

  return {
    days: q.days,
    since,
    filters: { userId: q.userId ?? null, projectId: q.projectId ?? null },
    ai: {
      calls: aiDays.reduce((s, d) => s + d.calls, 0),
      inputTokens: aiDays.reduce((s, d) => s + d.inputTokens, 0),
      outputTokens: aiDays.reduce((s, d) => s + d.outputTokens, 0),
      tokens: aiDays.reduce((s, d) => s + d.tokens, 0),
      perDay: aiDays,
    },
    projects: { created: projectDays.reduce((s, d) => s + d.count, 0), perDay: projectDays },
    ...(q.templateMetrics ? { templateMetrics: await templateMetrics(actor, since) } : {}),
    ...(q.alerts ? { alerts: (await usageFor(db, actor.org)).warnings } : {}),
  };
}

/** Templates used by the organization's projects: all time and created in the period, most used first. */
async function templateMetrics(actor: Actor, since: string) {
  const rows = await db
    .selectFrom("projects as p")
    .leftJoin("templates as t", "t.id", "p.templateId")
    .select([
      "p.templateId",
      "t.name",
      (eb) => eb.fn.countAll<number>().as("projects"),
      sql<number>`sum(case when p.createdAt >= ${since} then 1 else 0 end)`.as("inPeriod"),
    ])
    .where(readableProjects(actor))
    .where("p.templateId", "is not", null)
    .groupBy(["p.templateId", "t.name"])
    .orderBy("projects", "desc")
    .orderBy("t.name")
    .execute();
  return rows.map((r) => ({
    templateId: r.templateId!,
    name: r.name ?? "(deleted template)",
    projects: Number(r.projects),
    projectsInPeriod: Number(r.inPeriod),
  }));
}
