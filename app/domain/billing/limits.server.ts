import type { PlanId } from "#db/schema";
import type { Executor } from "~/db.server";
import { AppError } from "../errors";
import { COUNTERS } from "./counters.server";
import { limitFor, type Metric, PLAN_IDS, PLAN_NAMES, planAtLeast } from "./plans";
import { metricNoun } from "./pricing";

export async function currentUsage(db: Executor, orgId: string, metric: Metric) {
  return COUNTERS[metric](db, orgId);
}

/**
 * Throws 403 LIMIT_REACHED when creating `adding` more of `metric` would pass
 * the plan's limit. Call it inside the transaction that creates the resource.
 */
export async function assertWithinLimit(db: Executor, org: { id: string; plan: PlanId }, metric: Metric, adding = 1) {
  const limit = limitFor(org.plan, metric);
  if (limit === -1) return;
  const current = await currentUsage(db, org.id, metric);
  if (current + adding > limit) {
    const next = PLAN_IDS.find((p) => planAtLeast(p, org.plan) && p !== org.plan && limitFor(p, metric) !== limit);
    const upgrade = next ? ` Upgrade to ${PLAN_NAMES[next]} for more.` : "";
    const what = metricNoun(metric);
    const message =
      limit === 0
        ? `The ${PLAN_NAMES[org.plan]} plan does not include ${what}.${upgrade}`
        : `Your ${PLAN_NAMES[org.plan]} plan allows ${limit} ${what}; you have ${current}.${upgrade}`;
    throw new AppError("LIMIT_REACHED", 403, message, { extra: { metric, limit, current } });
  }
}

export function requirePlan(org: { plan: PlanId }, minimum: PlanId, feature: string) {
  if (!planAtLeast(org.plan, minimum)) {
    throw new AppError("PLAN_UPGRADE_REQUIRED", 403, `${feature} needs the ${PLAN_NAMES[minimum]} plan or above`, { extra: { requiredPlan: minimum } });
  }
}
