import { disconnectTracker } from "~/domain/trackers/connections.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/trackers";

const route = apiRoute(endpoint(c.disconnectTracker, ({ actor, params }) => disconnectTracker(actor, params.id)));
export const loader = route.loader;
export const action = route.action;
