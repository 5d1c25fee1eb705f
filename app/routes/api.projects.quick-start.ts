import { quickStart } from "~/domain/templates/quick-start.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/marketplace";

const route = apiRoute(
  endpoint(c.quickStart, async ({ actor, body, headers }) => {
    const result = await quickStart(actor, body);
    headers.set("Location", `/api/projects/${result.project.id}`);
    return result;
  }),
);
export const loader = route.loader;
export const action = route.action;
