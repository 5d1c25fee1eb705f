import { adminDashboard } from "~/domain/admin/dashboard.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/administration";

const route = apiRoute(endpoint(c.adminDashboard, ({ actor }) => adminDashboard(actor)));
export const loader = route.loader;
export const action = route.action;
