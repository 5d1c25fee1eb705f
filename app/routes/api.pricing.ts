import { pricingTiers } from "~/domain/billing/pricing";
import { stripePriceId } from "~/domain/billing/providers/stripe.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/billing";

const route = apiRoute(endpoint(c.getPricing, () => ({ tiers: pricingTiers(stripePriceId), currency: "usd" })));
export const loader = route.loader;
export const action = route.action;
