import { usageAnalytics } from "~/domain/admin/analytics.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/administration";

const route = apiRoute(endpoint(c.adminUsageAnalytics, ({ actor, query }) => usageAnalytics(actor, query)));
export const loader = route.loader;
export const action = route.action;
