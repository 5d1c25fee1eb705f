import { sql } from "kysely";
import { db } from "~/db.server";
import { type Actor, ADMIN_ROLES, requireRole } from "../actor";
import { PLAN_NAMES, PLAN_PRICES } from "./plans";
import { billingProvider } from "./providers/index.server";
import { usageFor } from "./usage.server";

export const TREND_MONTHS = 6;

/** The first day (UTC) of each of the last `count` months, oldest first, as YYYY-MM. */
export function lastMonths(count: number, now = new Date()) {
  const months: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    months.push(d.toISOString().slice(0, 7));
  }
  return months;
}

type MonthRow = { month: string; n: number | string | null };

async function perMonth(query: Promise<MonthRow[]>) {
  const rows = await query;
  return new Map(rows.map((r) => [r.month, Number(r.n ?? 0)]));
}

/** Monthly totals of the metered resources, from the month the organization was created. */
async function usageTrend(orgId: string, createdAt: string) {
  const months = lastMonths(TREND_MONTHS).filter((m) => m >= createdAt.slice(0, 7));
  const since = `${months[0] ?? createdAt.slice(0, 7)}-01`;
  const month = sql<string>`substr(createdAt, 1, 7)`;
  const uploadsPerMonth = (metric: "document_uploads" | "transcription_minutes") =>
    perMonth(
      db
        .selectFrom("uploadUsage")
        .select([month.as("month"), sql<number>`sum(amount)`.as("n")])
        .where("orgId", "=", orgId)
        .where("metric", "=", metric)
        .where("createdAt", ">=", since)
        .groupBy(month)
        .execute(),
    );
  const [tokens, projects, documents, minutes] = await Promise.all([
    perMonth(
      db
        .selectFrom("aiCalls")
        .select([month.as("month"), sql<number>`sum(inputTokens + outputTokens)`.as("n")])
        .where("orgId", "=", orgId)
        .where("createdAt", ">=", since)
        .groupBy(month)
        .execute(),
    ),
    perMonth(
      db
        .selectFrom("projects")
        .select([month.as("month"), sql<number>`count(*)`.as("n")])
        .where("orgId", "=", orgId)
        .where("createdAt", ">=", since)
        .groupBy(month)
        .execute(),
    ),
    uploadsPerMonth("document_uploads"),
    uploadsPerMonth("transcription_minutes"),
  ]);
  return months.map((m) => ({
    month: m,
    ai_tokens: tokens.get(m) ?? 0,
    projects_created: projects.get(m) ?? 0,
    document_uploads: documents.get(m) ?? 0,
    transcription_minutes: minutes.get(m) ?? 0,
  }));
}

/** Plan, usage, history and trend of the caller's organization (owner or admin). */
export async function adminBillingOverview(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "view billing");
  const org = await db.selectFrom("organizations").select(["id", "plan", "createdAt"]).where("id", "=", actor.org.id).executeTakeFirstOrThrow();
  const [{ usage, warnings }, history, customer, trend] = await Promise.all([
    usageFor(db, org),
    db
      .selectFrom("billingHistory")
      .leftJoin("users", "users.id", "billingHistory.actorId")
      .select([
        "billingHistory.id",
        "billingHistory.fromPlan",
        "billingHistory.toPlan",
        "billingHistory.interval",
        "billingHistory.provider",
        "billingHistory.amountCents",
        "billingHistory.currency",
        "billingHistory.source",
        "billingHistory.createdAt",
        "users.name as actorName",
      ])
      .where("billingHistory.orgId", "=", org.id)
      .orderBy("billingHistory.createdAt", "desc")
      .limit(50)
      .execute(),
    db.selectFrom("billingCustomers").select(["status"]).where("orgId", "=", org.id).executeTakeFirst(),
    usageTrend(org.id, org.createdAt),
  ]);
  const lastInterval = history.find((h) => h.toPlan === org.plan)?.interval ?? null;
  return {
    plan: {
      id: org.plan,
      name: PLAN_NAMES[org.plan],
      tier: org.plan,
      interval: lastInterval,
      prices: PLAN_PRICES[org.plan],
      provider: billingProvider().id,
      subscriptionStatus: customer?.status ?? null,
    },
    usage,
    warnings,
    history,
    trend,
  };
}
