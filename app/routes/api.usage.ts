import { usageSummary } from "~/domain/billing/usage.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/billing";

const route = apiRoute(endpoint(c.getUsage, ({ actor }) => usageSummary(actor)));
export const loader = route.loader;
export const action = route.action;
