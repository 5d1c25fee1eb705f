import { listTrackerIssues } from "~/domain/trackers/sync.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/trackers";

const route = apiRoute(endpoint(c.listTrackerIssues, ({ actor, params }) => listTrackerIssues(actor, params.projectId)));
export const loader = route.loader;
export const action = route.action;
