import { setAllowedTargets } from "~/domain/trackers/allowed-targets.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/trackers";

const route = apiRoute(endpoint(c.setTrackerAllowedTargets, ({ actor, params, body }) => setAllowedTargets(actor, params.id, body)));
export const loader = route.loader;
export const action = route.action;
