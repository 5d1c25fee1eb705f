import { transferOwnership } from "~/domain/orgs/members.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/organization";

const route = apiRoute(endpoint(c.transferOwnership, async ({ actor, body }) => ({ success: true, ...(await transferOwnership(actor, body.userId)) })));
export const loader = route.loader;
export const action = route.action;
