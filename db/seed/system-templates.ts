import { standardPrd } from "./templates/standard-prd";
import { leanOnePager } from "./templates/lean-one-pager";
import { technicalApi } from "./templates/technical-api";
import { mobileFeature } from "./templates/mobile-feature";
import { b2bSaas } from "./templates/b2b-saas";
import { aiMlFeature } from "./templates/ai-ml-feature";

/**
 * Built-in ("system") PRD templates shipped with every installation.
 *
 * Each template pairs a section outline with the system prompt that turns a
 * product manager's conversation into a PRD using exactly that outline. The
 * `## ` headings listed inside each `systemPrompt` must match `sections`
 * one-to-one and in order.
 */

export interface SystemTemplateSeed {
  id: string; // stable, e.g. "sys-standard-prd"
  name: string;
  description: string; // 1–2 sentences: when to use it
  category: string; // one of: general, technical, mobile, b2b, ai, startup
  sections: string[]; // the PRD section headings, in order (8–14 items)
  initialQuestion: string; // the first question the AI asks the PM, open and specific
  tags: string[]; // 3–6 lowercase tags
  features: string[]; // 3–5 short selling points shown in the gallery
  systemPrompt: string; // the system prompt that makes an LLM produce a strong PRD with this template
  isFeatured: boolean;
  pricingTier: "free";
}

export const SYSTEM_TEMPLATES: readonly SystemTemplateSeed[] = [standardPrd, leanOnePager, technicalApi, mobileFeature, b2bSaas, aiMlFeature];
