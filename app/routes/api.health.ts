import { apiRoute, endpoint } from "~/http/api/api.server";
import { health } from "~/http/api/contracts/system";
import { healthReport } from "~/ops/health.server";

const route = apiRoute(endpoint(health, () => healthReport()));
export const loader = route.loader;
export const action = route.action;
