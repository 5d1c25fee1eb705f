import { deleteView } from "~/domain/collaboration/stakeholders.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";

const route = apiRoute(
  endpoint(c.deleteStakeholderView, async ({ actor, params }) => {
    await deleteView(actor, params.projectId, params.viewId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
