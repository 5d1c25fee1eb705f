import type { PlanId } from "#db/schema";

/** Plans and limits (docs/billing.md). -1 means unlimited. */
export const PLAN_IDS: readonly PlanId[] = ["free", "starter", "pro", "enterprise"];

export const METRICS = ["members", "projects", "ai_tokens", "templates", "api_keys", "webhooks", "document_uploads", "transcription_minutes"] as const;
export type Metric = (typeof METRICS)[number];

export const PLAN_LIMITS: Record<PlanId, Record<Metric, number>> = {
  free: {
    members: 3,
    projects: 10,
    ai_tokens: 100_000,
    templates: 3,
    api_keys: 0,
    webhooks: 0,
    document_uploads: 10,
    transcription_minutes: 0,
  },
  starter: {
    members: 10,
    projects: 50,
    ai_tokens: 1_000_000,
    templates: 20,
    api_keys: 2,
    webhooks: 2,
    document_uploads: 100,
    transcription_minutes: 60,
  },
  pro: {
    members: 50,
    projects: -1,
    ai_tokens: 5_000_000,
    templates: 100,
    api_keys: 10,
    webhooks: 10,
    document_uploads: 1000,
    transcription_minutes: 600,
  },
  enterprise: {
    members: -1,
    projects: -1,
    ai_tokens: -1,
    templates: -1,
    api_keys: -1,
    webhooks: -1,
    document_uploads: -1,
    transcription_minutes: -1,
  },
};

export const PLAN_NAMES: Record<PlanId, string> = {
  free: "Free",
  starter: "Starter",
  pro: "Pro",
  enterprise: "Enterprise",
};

/** Requests per minute per user on AI tool, chat and generation endpoints. */
export const AI_RATE_PER_MINUTE: Record<PlanId, number> = {
  free: 10,
  starter: 30,
  pro: 60,
  enterprise: 300,
};

export const API_KEY_RATE_PER_MINUTE = 60;

export function planAtLeast(plan: PlanId, minimum: PlanId) {
  return PLAN_IDS.indexOf(plan) >= PLAN_IDS.indexOf(minimum);
}

export function limitFor(plan: PlanId, metric: Metric) {
  return PLAN_LIMITS[plan][metric];
}

/**
 * Prices in USD, flat per organization (not per seat): monthly per month,
 * annual per year (two months free). `null`: custom, contact sales.
 */
export const PLAN_PRICES: Record<PlanId, { monthly: number; annual: number } | null> = {
  free: { monthly: 0, annual: 0 },
  starter: { monthly: 12, annual: 120 },
  pro: { monthly: 29, annual: 290 },
  enterprise: null,
};

export const PLAN_DESCRIPTIONS: Record<PlanId, string> = {
  free: "For trying PRD Studio with a small team.",
  starter: "For small teams writing PRDs every week.",
  pro: "For product organizations with integrations and automation.",
  enterprise: "Unlimited usage, custom rate limits and dedicated support.",
};

/** Plans that need a conversation with sales rather than a self-serve checkout. */
export const CONTACT_SALES_PLANS: readonly PlanId[] = ["enterprise"];
