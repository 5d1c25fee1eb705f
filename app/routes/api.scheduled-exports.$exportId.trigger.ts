import { triggerSchedule } from "~/domain/scheduled-exports/runs.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/scheduled-exports";

const route = apiRoute(endpoint(c.triggerScheduledExport, ({ actor, params }) => triggerSchedule(actor, params.exportId)));
export const loader = route.loader;
export const action = route.action;
