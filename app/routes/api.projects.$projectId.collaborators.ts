import { addCollaborator, listCollaborators } from "~/domain/collaboration/people.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";

const route = apiRoute(
  endpoint(c.listCollaborators, async ({ actor, params }) => ({
    collaborators: await listCollaborators(actor, params.projectId),
  })),
  endpoint(c.addCollaborator, async ({ actor, params, body }) => ({
    collaborator: await addCollaborator(actor, params.projectId, body),
  })),
);
export const loader = route.loader;
export const action = route.action;
