import type { BillingInterval, BillingProviderId, PlanId } from "#db/schema";
import type { Executor } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { writeAudit } from "../audit/audit.server";
import { notifyUsers } from "../notifications/notify.server";
import { PLAN_NAMES } from "./plans";
import { priceCents } from "./pricing";

export interface PlanChange {
  orgId: string;
  toPlan: PlanId;
  interval: BillingInterval | null;
  provider: BillingProviderId;
  source: "checkout" | "webhook" | "admin";
  actor?: { id: string; email: string; ip?: string | null; userAgent?: string | null } | null;
  reference?: string | null;
}

/**
 * Moves an organization to another plan at once, inside the caller's
 * transaction: the plan column (which every limit reads), a history row, an
 * audit entry and a notification to the owners and admins. A change to the
 * plan it already has records nothing and returns false.
 */
export async function applyPlanChange(trx: Executor, change: PlanChange) {
  const org = await trx.selectFrom("organizations").select(["id", "plan"]).where("id", "=", change.orgId).executeTakeFirst();
  if (!org || org.plan === change.toPlan) return false;
  const now = nowIso();
  await trx.updateTable("organizations").set({ plan: change.toPlan, updatedAt: now }).where("id", "=", org.id).execute();
  await trx
    .insertInto("billingHistory")
    .values({
      id: newId(),
      orgId: org.id,
      fromPlan: org.plan,
      toPlan: change.toPlan,
      interval: change.interval,
      provider: change.provider,
      amountCents: change.interval ? priceCents(change.toPlan, change.interval) : null,
      currency: "usd",
      source: change.source,
      actorId: change.actor?.id ?? null,
      reference: change.reference ?? null,
      createdAt: now,
    })
    .execute();
  await writeAudit(trx, {
    orgId: org.id,
    actorId: change.actor?.id ?? null,
    actorEmail: change.actor?.email ?? null,
    ip: change.actor?.ip ?? null,
    userAgent: change.actor?.userAgent ?? null,
    action: "billing.plan_changed",
    category: "billing",
    severity: "warning",
    targetType: "organization",
    targetId: org.id,
    metadata: { from: org.plan, to: change.toPlan, interval: change.interval, provider: change.provider, source: change.source },
  });
  const admins = await trx.selectFrom("memberships").select("userId").where("orgId", "=", org.id).where("role", "in", ["owner", "admin"]).execute();
  await notifyUsers(
    trx,
    admins.map((a) => a.userId),
    {
      orgId: org.id,
      type: "billing",
      title: `Plan changed to ${PLAN_NAMES[change.toPlan]}`,
      body: `Your organization moved from ${PLAN_NAMES[org.plan]} to ${PLAN_NAMES[change.toPlan]}.`,
      link: "/admin/billing",
      email: false,
    },
  );
  return true;
}
