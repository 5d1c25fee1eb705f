import { removeCollaborator } from "~/domain/collaboration/people.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";

const route = apiRoute(
  endpoint(c.removeCollaborator, async ({ actor, params }) => {
    await removeCollaborator(actor, params.projectId, params.collaboratorId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
