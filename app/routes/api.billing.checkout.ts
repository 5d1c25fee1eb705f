import { startCheckout } from "~/domain/billing/checkout.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/billing";

const route = apiRoute(
  endpoint(c.createCheckout, async ({ actor, body, meta }) => {
    const { checkoutUrl } = await startCheckout(actor, body, meta.appUrl);
    return { checkout_url: checkoutUrl };
  }),
);
export const loader = route.loader;
export const action = route.action;
