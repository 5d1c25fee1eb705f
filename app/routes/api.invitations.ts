import { createInvitation, listInvitations } from "~/domain/orgs/invitation-admin.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/organization";

const route = apiRoute(
  endpoint(c.listInvitations, async ({ actor }) => ({ invitations: await listInvitations(actor) })),
  endpoint(c.createInvitation, async ({ actor, body, meta }) => ({ invitation: await createInvitation(actor, body, meta) })),
);
export const loader = route.loader;
export const action = route.action;
