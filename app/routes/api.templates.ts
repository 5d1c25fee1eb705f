import { listTemplates } from "~/domain/templates/templates.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/templates";

const route = apiRoute(endpoint(c.listTemplates, async ({ actor, query }) => ({ templates: await listTemplates(actor, query) })));
export const loader = route.loader;
export const action = route.action;
