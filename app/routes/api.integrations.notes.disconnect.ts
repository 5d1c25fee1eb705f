import { disconnect } from "~/domain/integrations/connections.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/integrations";

const route = apiRoute(endpoint(c.disconnectNotes, ({ actor }) => disconnect(actor, "notes")));
export const loader = route.loader;
export const action = route.action;
