import { listLogs } from "~/domain/scheduled-exports/schedules.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/scheduled-exports";

const route = apiRoute(endpoint(c.listScheduledExportLogs, async ({ actor, params }) => ({ logs: await listLogs(actor, params.exportId) })));
export const loader = route.loader;
export const action = route.action;
