import { applyLiveUpdate } from "~/domain/live/live.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/live";

const route = apiRoute(endpoint(c.postLiveUpdate, ({ actor, params, body }) => applyLiveUpdate(actor, params.projectId, body)));
export const loader = route.loader;
export const action = route.action;
