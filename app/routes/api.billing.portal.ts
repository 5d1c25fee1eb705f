import { billingPortalLink } from "~/domain/billing/checkout.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/billing";

const route = apiRoute(endpoint(c.createPortal, async ({ actor, meta }) => ({ link: await billingPortalLink(actor, meta.appUrl) })));
export const loader = route.loader;
export const action = route.action;
