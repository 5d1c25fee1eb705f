import { deleteLink } from "~/domain/collaboration/links.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";

const route = apiRoute(
  endpoint(c.deleteLink, async ({ actor, params }) => {
    await deleteLink(actor, params.projectId, params.linkId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
