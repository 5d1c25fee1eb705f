import { cancelInvitation, resendInvitation } from "~/domain/orgs/invitation-admin.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/organization";

const route = apiRoute(
  endpoint(c.resendInvitation, async ({ actor, params, meta }) => ({ invitation: await resendInvitation(actor, params.invitationId, meta) })),
  endpoint(c.cancelInvitation, async ({ actor, params }) => {
    await cancelInvitation(actor, params.invitationId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
