import { adminBillingOverview } from "~/domain/billing/admin.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/billing";

const route = apiRoute(endpoint(c.getAdminBilling, ({ actor }) => adminBillingOverview(actor)));
export const loader = route.loader;
export const action = route.action;
