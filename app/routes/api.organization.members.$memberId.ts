import { changeMemberRole, removeMember } from "~/domain/orgs/members.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/organization";

const route = apiRoute(
  endpoint(c.changeMemberRole, async ({ actor, params, body }) => ({
    member: await changeMemberRole(actor, params.memberId, body.role),
  })),
  endpoint(c.removeMember, async ({ actor, params, query }) => {
    const { reassigned } = await removeMember(actor, params.memberId, query.reassignTo);
    return { success: true, reassigned };
  }),
);
export const loader = route.loader;
export const action = route.action;
