import { refreshIssueStates } from "~/domain/trackers/refresh.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/trackers";

const route = apiRoute(endpoint(c.refreshTrackerIssues, ({ actor, params }) => refreshIssueStates(actor, params.projectId)));
export const loader = route.loader;
export const action = route.action;
