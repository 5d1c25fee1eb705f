import { listOutputs } from "~/domain/ai-tools/outputs.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-tools";

const route = apiRoute(endpoint(c.listOutputs, async ({ actor, params, query }) => ({ outputs: await listOutputs(actor, params.projectId, query) })));
export const loader = route.loader;
export const action = route.action;
