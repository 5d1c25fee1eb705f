import { listOrgProjects } from "~/domain/admin/admin-projects.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/administration";

const route = apiRoute(endpoint(c.adminProjects, ({ actor, query }) => listOrgProjects(actor, query)));
export const loader = route.loader;
export const action = route.action;
