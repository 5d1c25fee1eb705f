import type { PlanId } from "#db/schema";
import { CONTACT_SALES_PLANS, limitFor, METRICS, type Metric, PLAN_DESCRIPTIONS, PLAN_IDS, PLAN_NAMES, PLAN_PRICES, AI_RATE_PER_MINUTE } from "./plans";

/** Public pricing, read from the same plan table that drives the limits. */

/** What a person reads for each metric, wherever usage or limits are shown (pricing, billing, usage warnings, limit errors). */
export const METRIC_LABELS: Record<Metric, string> = {
  members: "Members",
  projects: "Projects",
  ai_tokens: "AI tokens",
  templates: "Templates",
  api_keys: "REST API keys",
  webhooks: "Webhooks",
  document_uploads: "Document uploads",
  transcription_minutes: "Transcription minutes",
};

/** Metrics counted per calendar month; the others count what exists now. */
export const MONTHLY_METRICS: readonly Metric[] = ["ai_tokens", "document_uploads", "transcription_minutes"];

/** The label inside a sentence ("10 members", "No REST API keys"): lower case unless it starts with an acronym. */
export function metricNoun(metric: Metric) {
  const label = METRIC_LABELS[metric];
  return /^[A-Z]{2}/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
}

function featureLine(plan: PlanId, metric: Metric) {
  const limit = limitFor(plan, metric);
  const noun = metricNoun(metric);
  if (limit === -1) return `Unlimited ${noun}`;
  if (limit === 0) return `No ${noun}`;
  return `${limit.toLocaleString("en-US")} ${noun}${MONTHLY_METRICS.includes(metric) ? " per month" : ""}`;
}

export function planFeatures(plan: PlanId) {
  return [...METRICS.map((m) => featureLine(plan, m)), `${AI_RATE_PER_MINUTE[plan]} AI requests per minute per user`];
}

export interface PricingTier {
  id: PlanId;
  name: string;
  description: string;
  prices: { monthly: number; annual: number } | null;
  currency: "usd";
  /** Flat per organization, not per seat. */
  billingUnit: "organization";
  contactSales: boolean;
  limits: Record<Metric, number>;
  features: string[];
  /** Provider product (price) ids per interval; null when not configured. */
  productIds: { monthly: string | null; annual: string | null };
}

export function pricingTiers(priceIds: (plan: PlanId, interval: "monthly" | "annual") => string | null): PricingTier[] {
  return PLAN_IDS.map((id) => ({
    id,
    name: PLAN_NAMES[id],
    description: PLAN_DESCRIPTIONS[id],
    prices: PLAN_PRICES[id],
    currency: "usd",
    billingUnit: "organization",
    contactSales: CONTACT_SALES_PLANS.includes(id),
    limits: Object.fromEntries(METRICS.map((m) => [m, limitFor(id, m)])) as Record<Metric, number>,
    features: planFeatures(id),
    productIds: { monthly: priceIds(id, "monthly"), annual: priceIds(id, "annual") },
  }));
}

/** Price of a plan for an interval in cents; null when custom. */
export function priceCents(plan: PlanId, interval: "monthly" | "annual") {
  const price = PLAN_PRICES[plan];
  return price ? Math.round(price[interval] * 100) : null;
}
