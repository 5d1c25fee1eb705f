import { projectActivity } from "~/domain/projects/projects.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/projects";

const route = apiRoute(endpoint(c.activity, ({ viewer, params, query }) => projectActivity(viewer, params.projectId, query)));
export const loader = route.loader;
export const action = route.action;
