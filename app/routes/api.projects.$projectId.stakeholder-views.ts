import { createView, listViews } from "~/domain/collaboration/stakeholders.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";

const route = apiRoute(
  endpoint(c.listStakeholderViews, async ({ actor, params }) => ({ views: await listViews(actor, params.projectId) })),
  endpoint(c.createStakeholderView, async ({ actor, params, body }) => ({
    view: await createView(actor, params.projectId, body),
  })),
);
export const loader = route.loader;
export const action = route.action;
