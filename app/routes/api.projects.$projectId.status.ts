import { setProjectStatus } from "~/domain/projects/projects.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/projects";

const route = apiRoute(endpoint(c.setStatus, ({ actor, params, body }) => setProjectStatus(actor, params.projectId, body.status)));
export const loader = route.loader;
export const action = route.action;
