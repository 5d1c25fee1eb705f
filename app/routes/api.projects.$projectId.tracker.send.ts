import { sendStories } from "~/domain/trackers/sync.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/trackers";

const route = apiRoute(endpoint(c.sendToTracker, ({ actor, params, body }) => sendStories(actor, params.projectId, body)));
export const loader = route.loader;
export const action = route.action;
