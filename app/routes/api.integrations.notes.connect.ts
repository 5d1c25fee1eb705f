import { appUrl } from "~/config.server";
import { startConnect } from "~/domain/integrations/oauth.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/integrations";

const route = apiRoute(endpoint(c.connectNotes, ({ actor }) => startConnect(actor, "notes", appUrl())));
export const loader = route.loader;
export const action = route.action;
