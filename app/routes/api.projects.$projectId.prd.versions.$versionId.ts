import { getVersion } from "~/domain/prd/prd.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/prd";

const route = apiRoute(endpoint(c.getVersion, ({ actor, params, query }) => getVersion(actor, params.projectId, params.versionId, query.compare)));
export const loader = route.loader;
export const action = route.action;
