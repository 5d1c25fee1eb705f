import type { BillingProvider } from "./types";

/**
 * The default provider: no payment at all. Checkout is an in-app page where
 * an owner confirms the change (/billing/checkout/{id}); the "portal" is the
 * admin billing page.
 */
export const localProvider: BillingProvider = {
  id: "local",
  async createCheckout({ checkoutId, baseUrl }) {
    return { url: `${baseUrl}/billing/checkout/${checkoutId}`, externalId: null };
  },
  async portalLink({ baseUrl }) {
    return `${baseUrl}/admin/billing`;
  },
};
