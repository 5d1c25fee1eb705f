import { projectHistory } from "~/domain/projects/projects.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/projects";

const route = apiRoute(endpoint(c.statusHistory, async ({ viewer, params }) => ({ history: await projectHistory(viewer, params.projectId) })));
export const loader = route.loader;
export const action = route.action;
