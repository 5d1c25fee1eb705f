import { invitationLink } from "~/domain/orgs/invitation-admin.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/organization";

const route = apiRoute(endpoint(c.invitationLink, ({ actor, params, meta }) => invitationLink(actor, params.invitationId, meta)));
export const loader = route.loader;
export const action = route.action;
