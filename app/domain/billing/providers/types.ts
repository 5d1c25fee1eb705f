import type { BillingInterval, BillingProviderId, PlanId } from "#db/schema";

export interface CheckoutRequest {
  orgId: string;
  /** Our checkout-session id (the row in billingCheckoutSessions). */
  checkoutId: string;
  planId: PlanId;
  interval: BillingInterval;
  /** The provider's customer id of the organization, when it has one. */
  customerId: string | null;
  email: string;
  /** Absolute base URL of the app, for return links. */
  baseUrl: string;
}

/** A payment provider: where an owner pays, and where they manage billing. */
export interface BillingProvider {
  id: BillingProviderId;
  createCheckout(request: CheckoutRequest): Promise<{ url: string; externalId: string | null }>;
  portalLink(input: { orgId: string; customerId: string | null; baseUrl: string }): Promise<string>;
}
