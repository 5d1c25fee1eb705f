import { disconnect } from "~/domain/integrations/connections.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/integrations";

const route = apiRoute(endpoint(c.disconnectDocs, ({ actor }) => disconnect(actor, "docs")));
export const loader = route.loader;
export const action = route.action;
