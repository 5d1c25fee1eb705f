import { myOrganizations, switchOrganization } from "~/domain/orgs/switch.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/organization";

const route = apiRoute(
  endpoint(c.listMyOrganizations, async ({ actor }) => ({ organizations: await myOrganizations(actor) })),
  endpoint(c.switchOrganization, async ({ actor, body }) => ({ organization: await switchOrganization(actor, body.organizationId) })),
);
export const loader = route.loader;
export const action = route.action;
