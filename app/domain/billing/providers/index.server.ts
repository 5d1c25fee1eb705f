import { config } from "~/config.server";
import { localProvider } from "./local.server";
import { stripeProvider } from "./stripe.server";
import type { BillingProvider } from "./types";

/** The provider chosen by BILLING_PROVIDER (default `local`). */
export function billingProvider(): BillingProvider {
  return config().BILLING_PROVIDER === "stripe" ? stripeProvider : localProvider;
}
