import { deleteTemplate, updateTemplate } from "~/domain/templates/templates.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/templates";

const route = apiRoute(
  endpoint(c.updateTemplate, ({ actor, params, body }) => updateTemplate(actor, params.id, body)),
  endpoint(c.deleteTemplate, async ({ actor, params }) => {
    await deleteTemplate(actor, params.id);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
