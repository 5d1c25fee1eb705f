import { assignProject } from "~/domain/projects/projects.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/projects";

const route = apiRoute(endpoint(c.assign, ({ actor, params, body }) => assignProject(actor, params.projectId, body.assignedToId)));
export const loader = route.loader;
export const action = route.action;
