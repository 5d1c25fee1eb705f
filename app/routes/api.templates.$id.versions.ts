import { listTemplateVersions } from "~/domain/templates/templates.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/templates";

const route = apiRoute(endpoint(c.templateVersions, async ({ actor, params }) => ({ versions: await listTemplateVersions(actor, params.id) })));
export const loader = route.loader;
export const action = route.action;
