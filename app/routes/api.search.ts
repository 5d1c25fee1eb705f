import { searchProjects } from "~/domain/search/search-modes.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/search";

const route = apiRoute(endpoint(c.search, ({ actor, query }) => searchProjects(actor, query)));
export const loader = route.loader;
export const action = route.action;
