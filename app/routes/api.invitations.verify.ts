import { verifyInvitation } from "~/domain/orgs/invitation-admin.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/organization";

const route = apiRoute(endpoint(c.verifyInvitation, async ({ query }) => verifyInvitation(query.token)));
export const loader = route.loader;
export const action = route.action;
