import { getOrgSettings, updateOrgSettings } from "~/domain/orgs/settings.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/organization";

const route = apiRoute(
  endpoint(c.getOrgSettings, async ({ actor }) => getOrgSettings(actor)),
  endpoint(c.updateOrgSettings, async ({ actor, body }) => updateOrgSettings(actor, body)),
);
export const loader = route.loader;
export const action = route.action;
