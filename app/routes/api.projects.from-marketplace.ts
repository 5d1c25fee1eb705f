import { projectFromMarketplace } from "~/domain/templates/quick-start.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/marketplace";

const route = apiRoute(
  endpoint(c.fromMarketplace, async ({ actor, body, headers }) => {
    const result = await projectFromMarketplace(actor, body);
    headers.set("Location", `/api/projects/${result.project.id}`);
    return result;
  }),
);
export const loader = route.loader;
export const action = route.action;
