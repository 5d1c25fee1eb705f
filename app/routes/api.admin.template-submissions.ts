import { adminListSubmissions } from "~/domain/templates/submissions.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/marketplace";

const route = apiRoute(endpoint(c.adminListSubmissions, ({ actor, query }) => adminListSubmissions(actor, query)));
export const loader = route.loader;
export const action = route.action;
