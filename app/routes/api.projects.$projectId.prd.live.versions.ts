import { saveLiveVersion } from "~/domain/live/live.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/live";

const route = apiRoute(endpoint(c.postLiveVersion, ({ actor, params }) => saveLiveVersion(actor, params.projectId)));
export const loader = route.loader;
export const action = route.action;
