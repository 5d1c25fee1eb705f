import { recordActivity } from "~/domain/users/profile.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/user";

const route = apiRoute(endpoint(c.recordActivity, async ({ actor }) => ({ success: true, ...(await recordActivity(actor)) })));
export const loader = route.loader;
export const action = route.action;
