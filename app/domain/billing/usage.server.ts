import type { PlanId } from "#db/schema";
import { db, type Executor } from "~/db.server";
import type { Actor } from "../actor";
import { currentUsage } from "./limits.server";
import { limitFor, METRICS, type Metric, PLAN_NAMES } from "./plans";
import { METRIC_LABELS } from "./pricing";

export interface MetricUsage {
  current: number;
  limit: number;
  percentageUsed: number;
}

export interface UsageWarning {
  metric: Metric;
  message: string;
  level: "warning" | "critical";
  percentage: number;
}

export const WARNING_AT = 80;
export const CRITICAL_AT = 100;

/** 0 for unlimited; 100 when the plan includes none and some is used (or none allowed). */
export function percentageOf(current: number, limit: number) {
  if (limit === -1) return 0;
  if (limit === 0) return current > 0 ? 100 : 0;
  return Math.round((current / limit) * 1000) / 10;
}

export async function usageFor(db: Executor, org: { id: string; plan: PlanId }) {
  const usage = {} as Record<Metric, MetricUsage>;
  const warnings: UsageWarning[] = [];
  for (const metric of METRICS) {
    const current = await currentUsage(db, org.id, metric);
    const limit = limitFor(org.plan, metric);
    const percentageUsed = percentageOf(current, limit);
    usage[metric] = { current, limit, percentageUsed };
    if (limit > 0 && percentageUsed >= WARNING_AT) {
      const level = percentageUsed >= CRITICAL_AT ? "critical" : "warning";
      const label = METRIC_LABELS[metric];
      warnings.push({
        metric,
        level,
        percentage: percentageUsed,
        message:
          level === "critical"
            ? `${label}: limit reached (${current} of ${limit}). Upgrade your plan for more.`
            : `${label}: ${percentageUsed}% used (${current} of ${limit}).`,
      });
    }
  }
  return { usage, warnings };
}

/** The spec's "Usage summary" for the caller's organization. */
export async function usageSummary(actor: Actor, executor: Executor = db) {
  const { usage, warnings } = await usageFor(executor, actor.org);
  return { plan: { name: PLAN_NAMES[actor.org.plan], tier: actor.org.plan }, usage, warnings };
}
