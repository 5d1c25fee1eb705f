import { connectTracker, listTrackerConnections } from "~/domain/trackers/connections.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/trackers";

const route = apiRoute(
  endpoint(c.listTrackers, ({ actor }) => listTrackerConnections(actor)),
  endpoint(c.connectTracker, ({ actor, body }) => connectTracker(actor, body)),
);
export const loader = route.loader;
export const action = route.action;
