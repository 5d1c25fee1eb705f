import { resetLiveDocument } from "~/domain/live/reset.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/live";

const route = apiRoute(endpoint(c.postLiveReset, ({ actor, params }) => resetLiveDocument(actor, params.projectId)));
export const loader = route.loader;
export const action = route.action;
