import { restoreTemplateVersion } from "~/domain/templates/templates.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/templates";

const route = apiRoute(endpoint(c.restoreTemplate, ({ actor, params, body }) => restoreTemplateVersion(actor, params.id, body.versionId)));
export const loader = route.loader;
export const action = route.action;
