import type Stripe from "stripe";
import type { BillingInterval, PlanId } from "#db/schema";
import { config } from "~/config.server";
import { AppError } from "../../errors";
import type { BillingProvider } from "./types";

/** Stripe, through the official SDK (BILLING_PROVIDER=stripe). */

let cached: { key: string; client: Stripe } | undefined;

/** The SDK is loaded on first use (~20 MB): most installations bill with the built-in provider. */
export async function stripeClient() {
  const key = config().STRIPE_SECRET_KEY;
  if (!key) throw new AppError("PROVIDER_ERROR", 502, "Billing is not configured: STRIPE_SECRET_KEY is missing");
  if (cached?.key !== key) {
    // The fetch client, so requests go through the global fetch (and test mocks).
    const { default: StripeSdk } = await import("stripe");
    cached = { key, client: new StripeSdk(key, { httpClient: StripeSdk.createFetchHttpClient(), maxNetworkRetries: 0 }) };
  }
  return cached.client;
}

/** The configured Stripe price id of a plan and interval (STRIPE_PRICE_<PLAN>_<INTERVAL>). */
export function stripePriceId(plan: PlanId, interval: BillingInterval): string | null {
  const name = `STRIPE_PRICE_${plan.toUpperCase()}_${interval.toUpperCase()}` as keyof ReturnType<typeof config>;
  const value = config()[name];
  return typeof value === "string" && value ? value : null;
}

/** Which plan and interval a Stripe price id stands for. */
export function planForPriceId(priceId: string): { plan: PlanId; interval: BillingInterval } | null {
  for (const plan of ["starter", "pro", "enterprise"] as const) {
    for (const interval of ["monthly", "annual"] as const) {
      if (stripePriceId(plan, interval) === priceId) return { plan, interval };
    }
  }
  return null;
}

function providerError(error: unknown): never {
  if (error instanceof AppError) throw error;
  const message = error instanceof Error ? error.message : String(error);
  throw new AppError("PROVIDER_ERROR", 502, `The payment provider refused the request: ${message}`);
}

export const stripeProvider: BillingProvider = {
  id: "stripe",
  async createCheckout({ orgId, checkoutId, planId, interval, customerId, email, baseUrl }) {
    const price = stripePriceId(planId, interval);
    if (!price) {
      throw new AppError("VALIDATION_ERROR", 400, `The ${planId} plan cannot be bought ${interval} here`, {
        details: [{ path: "planId", message: "No price is configured for this plan and interval" }],
      });
    }
    const metadata = { orgId, planId, interval, checkoutId };
    try {
      const session = await (await stripeClient()).checkout.sessions.create({
        mode: "subscription",
        line_items: [{ price, quantity: 1 }],
        client_reference_id: orgId,
        metadata,
        subscription_data: { metadata },
        ...(customerId ? { customer: customerId } : { customer_email: email }),
        success_url: `${baseUrl}/admin/billing?checkout=success`,
        cancel_url: `${baseUrl}/admin/plans?checkout=cancelled`,
      });
      if (!session.url) throw new Error("no checkout URL returned");
      return { url: session.url, externalId: session.id };
    } catch (error) {
      providerError(error);
    }
  },
  async portalLink({ customerId, baseUrl }) {
    if (!customerId) {
      throw new AppError("CONFLICT", 409, "This organization has no Stripe subscription yet; choose a paid plan first");
    }
    try {
      const session = await (await stripeClient()).billingPortal.sessions.create({
        customer: customerId,
        return_url: `${baseUrl}/admin/billing`,
      });
      return session.url;
    } catch (error) {
      providerError(error);
    }
  },
};
