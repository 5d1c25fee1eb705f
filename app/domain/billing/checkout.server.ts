import type { BillingInterval, PlanId } from "#db/schema";
import { db } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { type Actor, ADMIN_ROLES, requireRole } from "../actor";
import { AppError, notFound } from "../errors";
import { applyPlanChange } from "./change-plan.server";
import { CONTACT_SALES_PLANS, PLAN_NAMES } from "./plans";
import { billingProvider } from "./providers/index.server";

/** A checkout (local confirmation page or provider redirect) stays open this long. */
export const CHECKOUT_TTL_MS = 60 * 60 * 1000;

export interface CheckoutInput {
  planId: PlanId;
  interval: BillingInterval;
}

async function customerOf(orgId: string) {
  const row = await db.selectFrom("billingCustomers").selectAll().where("orgId", "=", orgId).executeTakeFirst();
  return row ?? null;
}

/** Starts a plan change; returns where to send the owner. Owner or admin only. */
export async function startCheckout(actor: Actor, input: CheckoutInput, baseUrl: string) {
  requireRole(actor, ADMIN_ROLES, "change the plan");
  if (input.planId === actor.org.plan) {
    throw new AppError("CONFLICT", 409, `Your organization is already on the ${PLAN_NAMES[input.planId]} plan`);
  }
  if (CONTACT_SALES_PLANS.includes(input.planId)) {
    throw new AppError("VALIDATION_ERROR", 400, `${PLAN_NAMES[input.planId]} is arranged with sales; contact us to upgrade`, {
      details: [{ path: "planId", message: "Contact sales for this plan" }],
    });
  }
  const provider = billingProvider();
  if (provider.id === "stripe" && input.planId === "free") {
    throw new AppError("VALIDATION_ERROR", 400, "Cancel your subscription in the billing portal to return to Free", {
      details: [{ path: "planId", message: "Use the billing portal to downgrade to Free" }],
    });
  }
  const id = newId();
  const customer = await customerOf(actor.org.id);
  const { url, externalId } = await provider.createCheckout({
    orgId: actor.org.id,
    checkoutId: id,
    planId: input.planId,
    interval: input.interval,
    customerId: customer?.customerId ?? null,
    email: actor.user.email,
    baseUrl,
  });
  const now = new Date();
  await db
    .insertInto("billingCheckoutSessions")
    .values({
      id,
      orgId: actor.org.id,
      planId: input.planId,
      interval: input.interval,
      provider: provider.id,
      status: "pending",
      externalId,
      createdById: actor.user.id,
      expiresAt: new Date(now.getTime() + CHECKOUT_TTL_MS).toISOString(),
      completedAt: null,
      createdAt: nowIso(now),
    })
    .execute();
  return { checkoutUrl: url, id };
}

/** Link to where billing is managed (provider portal, or the admin page). */
export async function billingPortalLink(actor: Actor, baseUrl: string) {
  requireRole(actor, ADMIN_ROLES, "manage billing");
  const customer = await customerOf(actor.org.id);
  return billingProvider().portalLink({ orgId: actor.org.id, customerId: customer?.customerId ?? null, baseUrl });
}

/** A local checkout of the caller's organization, with its effective status. */
export async function getLocalCheckout(actor: Actor, id: string) {
  const row = await db
    .selectFrom("billingCheckoutSessions")
    .selectAll()
    .where("id", "=", id)
    .where("orgId", "=", actor.org.id)
    .where("provider", "=", "local")
    .executeTakeFirst();
  if (!row) throw notFound("Checkout");
  const expired = row.status === "pending" && row.expiresAt <= nowIso();
  return { ...row, status: expired ? ("expired" as const) : row.status, currentPlan: actor.org.plan };
}

/** The owner confirms a local checkout: the plan changes at once. */
export async function confirmLocalCheckout(actor: Actor, id: string) {
  requireRole(actor, ["owner"], "confirm a plan change");
  const checkout = await getLocalCheckout(actor, id);
  if (checkout.status !== "pending") {
    throw new AppError("CONFLICT", 409, `This checkout is ${checkout.status}; start a new one from the plans page`);
  }
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("billingCheckoutSessions")
      .set({ status: "completed", completedAt: nowIso() })
      .where("id", "=", id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new AppError("CONFLICT", 409, "This checkout was already handled");
    await applyPlanChange(trx, {
      orgId: actor.org.id,
      toPlan: checkout.planId,
      interval: checkout.interval,
      provider: "local",
      source: "checkout",
      actor: { id: actor.user.id, email: actor.user.email, ip: actor.ip, userAgent: actor.userAgent },
      reference: id,
    });
    return { planId: checkout.planId };
  });
}

/** Owner or admin abandons a pending local checkout. */
export async function cancelLocalCheckout(actor: Actor, id: string) {
  requireRole(actor, ADMIN_ROLES, "cancel a checkout");
  const checkout = await getLocalCheckout(actor, id);
  if (checkout.status !== "pending") return;
  await db.updateTable("billingCheckoutSessions").set({ status: "cancelled" }).where("id", "=", id).where("status", "=", "pending").execute();
}
