// Contracts of this area. Each exported contract is picked up by ./index.ts.
import { z } from "zod/v4";
import { ADMIN_ROLES } from "~/domain/actor";
import { contract } from "../contract";

const tag = "Billing";

const planId = z.enum(["free", "starter", "pro", "enterprise"]);
const metricUsage = z.object({ current: z.number(), limit: z.number(), percentageUsed: z.number() });
const usageShape = z.record(z.string(), metricUsage);
const warning = z.object({
  metric: z.string(),
  message: z.string(),
  level: z.enum(["warning", "critical"]),
  percentage: z.number(),
});

const tier = z.object({
  id: planId,
  name: z.string(),
  description: z.string(),
  prices: z.object({ monthly: z.number(), annual: z.number() }).nullable(),
  currency: z.string(),
  billingUnit: z.string(),
  contactSales: z.boolean(),
  limits: z.record(z.string(), z.number()),
  features: z.array(z.string()),
  productIds: z.object({ monthly: z.string().nullable(), annual: z.string().nullable() }),
});

export const getPricing = contract({
  method: "GET",
  path: "/api/pricing",
  tag,
  summary: "Pricing tiers with features and product ids",
  description:
    "Public. Prices are USD, flat per organization: `monthly` per month, `annual` per year. `prices: null` means custom (contact sales). Limits use -1 for unlimited.",
  auth: "public",
  response: z.object({ tiers: z.array(tier), currency: z.string() }),
});

export const getPricingPlans = contract({
  method: "GET",
  path: "/api/pricing/plans",
  tag,
  summary: "Active subscription plans with features",
  auth: "public",
  response: z.object({ plans: z.array(tier) }),
});

export const checkoutBody = z.object({
  planId,
  interval: z.enum(["monthly", "annual"]),
});

export const createCheckout = contract({
  method: "POST",
  path: "/api/billing/checkout",
  tag,
  summary: "Start a plan change",
  description:
    "Owner or admin. Returns where to send the owner: with the local provider an in-app confirmation page (`/billing/checkout/{id}`, valid one hour, an owner confirms), with Stripe a hosted checkout. 409 CONFLICT for the current plan; 400 for Enterprise (contact sales).",
  auth: "user",
  roles: ADMIN_ROLES,
  body: checkoutBody,
  response: z.object({ checkout_url: z.string() }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "CONFLICT", "PROVIDER_ERROR"],
});

export const createPortal = contract({
  method: "POST",
  path: "/api/billing/portal",
  tag,
  summary: "Link to the billing portal",
  description: "Owner or admin. Stripe: a customer-portal session (409 before the first subscription). Local: the admin billing page.",
  auth: "user",
  roles: ADMIN_ROLES,
  response: z.object({ link: z.string() }),
  errors: ["FORBIDDEN", "CONFLICT", "PROVIDER_ERROR"],
});

export const stripeWebhook = contract({
  method: "POST",
  path: "/api/billing/webhook",
  tag,
  summary: "Stripe webhook receiver",
  description:
    "Public, authenticated by the `Stripe-Signature` header over the raw body (tolerance 5 minutes). Handles checkout.session.completed and customer.subscription.updated/deleted; each event id is applied once (a replay answers `duplicate: true`). 400 on a bad signature.",
  auth: "public",
  crossSite: true,
  response: z.object({ received: z.boolean(), duplicate: z.boolean(), status: z.string() }),
  errors: ["VALIDATION_ERROR", "NOT_FOUND", "PAYLOAD_TOO_LARGE"],
});

export const getUsage = contract({
  method: "GET",
  path: "/api/usage",
  tag,
  summary: "Usage summary of the organization",
  description: "Eight metrics with current, limit (-1 unlimited) and percentageUsed. Warnings at 80% (`warning`) and 100% (`critical`).",
  auth: "user",
  response: z.object({ plan: z.object({ name: z.string(), tier: planId }), usage: usageShape, warnings: z.array(warning) }),
});

export const getAdminBilling = contract({
  method: "GET",
  path: "/api/admin/billing",
  tag,
  summary: "Plan, usage, billing history and usage trend",
  description: "Owner or admin. `trend`: monthly totals for the last 6 months (from the organization's creation).",
  auth: "user",
  roles: ADMIN_ROLES,
  response: z.object({
    plan: z.object({
      id: planId,
      name: z.string(),
      tier: planId,
      interval: z.string().nullable(),
      prices: z.object({ monthly: z.number(), annual: z.number() }).nullable(),
      provider: z.string(),
      subscriptionStatus: z.string().nullable(),
    }),
    usage: usageShape,
    warnings: z.array(warning),
    history: z.array(z.record(z.string(), z.unknown())),
    trend: z.array(z.record(z.string(), z.union([z.string(), z.number()]))),
  }),
  errors: ["FORBIDDEN"],
});
