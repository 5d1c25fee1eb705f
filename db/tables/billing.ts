/** Billing: subscriptions, checkout sessions, billing history. */
import type { PlanId } from "./accounts";

export type BillingInterval = "monthly" | "annual";
export type BillingProviderId = "local" | "stripe";

/** A checkout started by an owner or admin; the local provider confirms it in-app. */
export interface BillingCheckoutSessionsTable {
  id: string;
  orgId: string;
  planId: PlanId;
  interval: BillingInterval;
  provider: BillingProviderId;
  /** pending, completed, cancelled or expired. */
  status: "pending" | "completed" | "cancelled" | "expired";
  /** The provider's session id (Stripe `cs_...`); null for the local provider. */
  externalId: string | null;
  createdById: string | null;
  expiresAt: string;
  completedAt: string | null;
  createdAt: string;
}

/** One row per plan change (who, from, to, how). */
export interface BillingHistoryTable {
  id: string;
  orgId: string;
  fromPlan: PlanId;
  toPlan: PlanId;
  interval: BillingInterval | null;
  provider: BillingProviderId;
  /** Price of the new plan for the interval, in cents (null when custom). */
  amountCents: number | null;
  currency: string;
  /** checkout, webhook or admin. */
  source: string;
  actorId: string | null;
  reference: string | null;
  createdAt: string;
}

/** The provider's customer and subscription of an organization. */
export interface BillingCustomersTable {
  orgId: string;
  provider: BillingProviderId;
  customerId: string;
  subscriptionId: string | null;
  status: string | null;
  updatedAt: string;
}

/** Provider webhook events already applied (replays are ignored). */
export interface BillingWebhookEventsTable {
  id: string;
  provider: BillingProviderId;
  type: string;
  processedAt: string;
}

// Table interfaces of this area; each is listed in BillingTables (merged into Database in ../schema.ts).
export interface BillingTables {
  billingCheckoutSessions: BillingCheckoutSessionsTable;
  billingHistory: BillingHistoryTable;
  billingCustomers: BillingCustomersTable;
  billingWebhookEvents: BillingWebhookEventsTable;
}
