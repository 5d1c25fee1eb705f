import { listOrgMembers } from "~/domain/orgs/members.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/organization";

const route = apiRoute(endpoint(c.listMembers, async ({ actor }) => ({ members: await listOrgMembers(actor) })));
export const loader = route.loader;
export const action = route.action;
