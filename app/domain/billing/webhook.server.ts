import type Stripe from "stripe";
import type { BillingInterval, PlanId } from "#db/schema";
import { config } from "~/config.server";
import { db, type Executor } from "~/db.server";
import { nowIso } from "~/utils/ids.server";
import { AppError } from "../errors";
import { applyPlanChange } from "./change-plan.server";
import { PLAN_IDS } from "./plans";
import { planForPriceId, stripeClient } from "./providers/stripe.server";

/** Signature tolerance: an event signed longer ago than this is refused (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const badSignature = (message: string) =>
  new AppError("VALIDATION_ERROR", 400, `Invalid Stripe signature: ${message}`, {
    details: [{ path: "Stripe-Signature", message }],
  });

/** Verifies the signature over the raw body; throws 400 when it does not match. */
export async function verifyStripeEvent(raw: string, signature: string | null): Promise<Stripe.Event> {
  const secret = config().STRIPE_WEBHOOK_SECRET;
  if (!secret) throw new AppError("NOT_FOUND", 404, "Stripe webhooks are not configured");
  if (!signature) throw badSignature("header missing");
  try {
    return (await stripeClient()).webhooks.constructEvent(raw, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (error) {
    throw badSignature(error instanceof Error ? error.message : "does not match");
  }
}

const asPlan = (v: unknown): PlanId | null => (PLAN_IDS.includes(v as PlanId) ? (v as PlanId) : null);
const asInterval = (v: unknown): BillingInterval | null => (v === "monthly" || v === "annual" ? v : null);
const idOf = (v: string | { id: string } | null | undefined) => (typeof v === "string" ? v : (v?.id ?? null));

async function orgForCustomer(trx: Executor, customerId: string | null, metadataOrg: unknown) {
  if (customerId) {
    const row = await trx.selectFrom("billingCustomers").select("orgId").where("customerId", "=", customerId).executeTakeFirst();
    if (row) return row.orgId;
  }
  if (typeof metadataOrg !== "string") return null;
  const org = await trx.selectFrom("organizations").select("id").where("id", "=", metadataOrg).executeTakeFirst();
  return org?.id ?? null;
}

async function saveCustomer(trx: Executor, orgId: string, customerId: string, subscriptionId: string | null, status: string | null) {
  await trx
    .insertInto("billingCustomers")
    .values({ orgId, provider: "stripe", customerId, subscriptionId, status, updatedAt: nowIso() })
    .onConflict((oc) => oc.column("orgId").doUpdateSet({ customerId, subscriptionId, status, updatedAt: nowIso() }))
    .execute();
}

async function onCheckoutCompleted(trx: Executor, event: Stripe.Event, session: Stripe.Checkout.Session) {
  const orgId = await orgForCustomer(trx, null, session.client_reference_id ?? session.metadata?.orgId);
  const plan = asPlan(session.metadata?.planId);
  if (!orgId || !plan) return "ignored";
  const customerId = idOf(session.customer);
  if (customerId) await saveCustomer(trx, orgId, customerId, idOf(session.subscription), "active");
  if (session.metadata?.checkoutId) {
    await trx
      .updateTable("billingCheckoutSessions")
      .set({ status: "completed", completedAt: nowIso() })
      .where("id", "=", session.metadata.checkoutId)
      .where("orgId", "=", orgId)
      .execute();
  }
  await applyPlanChange(trx, {
    orgId,
    toPlan: plan,
    interval: asInterval(session.metadata?.interval),
    provider: "stripe",
    source: "webhook",
    reference: event.id,
  });
  return "applied";
}

/** The buyer left a Stripe checkout until it expired: our record of it stops being pending. */
async function onCheckoutExpired(trx: Executor, session: Stripe.Checkout.Session) {
  const orgId = session.client_reference_id ?? session.metadata?.orgId;
  const checkoutId = session.metadata?.checkoutId;
  if (!orgId || !checkoutId) return "ignored";
  const updated = await trx
    .updateTable("billingCheckoutSessions")
    .set({ status: "expired" })
    .where("id", "=", checkoutId)
    .where("orgId", "=", orgId)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0 ? "expired" : "ignored";
}

async function onSubscriptionChanged(trx: Executor, event: Stripe.Event, sub: Stripe.Subscription) {
  const customerId = idOf(sub.customer);
  const orgId = await orgForCustomer(trx, customerId, sub.metadata?.orgId);
  if (!orgId) return "ignored";
  const ended = event.type === "customer.subscription.deleted" || ["canceled", "unpaid", "incomplete_expired"].includes(sub.status);
  let plan: PlanId | null = "free";
  let interval: BillingInterval | null = null;
  if (!ended) {
    const priceId = sub.items?.data?.[0]?.price?.id;
    const fromPrice = priceId ? planForPriceId(priceId) : null;
    plan = fromPrice?.plan ?? asPlan(sub.metadata?.planId);
    interval = fromPrice?.interval ?? asInterval(sub.metadata?.interval);
  }
  if (customerId) await saveCustomer(trx, orgId, customerId, ended ? null : sub.id, sub.status);
  if (!plan) return "ignored";
  await applyPlanChange(trx, { orgId, toPlan: plan, interval, provider: "stripe", source: "webhook", reference: event.id });
  return "applied";
}

/**
 * Applies a verified Stripe event once: the event id is recorded in the same
 * transaction as its effect, so a replay (same id) changes nothing.
 */
export async function handleStripeEvent(event: Stripe.Event) {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("billingWebhookEvents")
      .values({ id: event.id, provider: "stripe", type: event.type, processedAt: nowIso() })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return { status: "duplicate" as const };
    let status: string = "ignored";
    if (event.type === "checkout.session.completed") {
      status = await onCheckoutCompleted(trx, event, event.data.object);
    } else if (event.type === "checkout.session.expired") {
      status = await onCheckoutExpired(trx, event.data.object);
    } else if (event.type === "customer.subscription.updated" || event.type === "customer.subscription.deleted") {
      status = await onSubscriptionChanged(trx, event, event.data.object);
    }
    return { status };
  });
}
