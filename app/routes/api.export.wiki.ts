import { exportToWiki } from "~/domain/integrations/export.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/integrations";

const route = apiRoute(endpoint(c.exportWiki, ({ actor, body }) => exportToWiki(actor, body)));
export const loader = route.loader;
export const action = route.action;
