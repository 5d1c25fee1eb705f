import { updateTimezone } from "~/domain/users/profile.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/user";

const route = apiRoute(endpoint(c.updateTimezone, async ({ actor, body }) => ({ success: true, ...(await updateTimezone(actor, body)) })));
export const loader = route.loader;
export const action = route.action;
