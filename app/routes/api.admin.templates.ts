import { adminListTemplates, createTemplate } from "~/domain/templates/templates.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/templates";

const route = apiRoute(
  endpoint(c.adminListTemplates, ({ actor, query }) => adminListTemplates(actor, query)),
  endpoint(c.createTemplate, ({ actor, body }) => createTemplate(actor, body)),
);
export const loader = route.loader;
export const action = route.action;
