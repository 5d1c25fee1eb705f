import { getMyPreferences, updateMyPreferences } from "~/domain/notifications/preferences.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/notifications";

const route = apiRoute(
  endpoint(c.getPreferences, ({ actor }) => getMyPreferences(actor)),
  endpoint(c.updatePreferences, ({ actor, body }) => updateMyPreferences(actor, body)),
);
export const loader = route.loader;
export const action = route.action;
