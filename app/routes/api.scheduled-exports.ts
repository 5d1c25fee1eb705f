import { createSchedule, listSchedules } from "~/domain/scheduled-exports/schedules.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/scheduled-exports";

const route = apiRoute(
  endpoint(c.listScheduledExports, async ({ actor, query }) => ({ schedules: await listSchedules(actor, query) })),
  endpoint(c.createScheduledExport, async ({ actor, body }) => ({ schedule: await createSchedule(actor, body) })),
);
export const loader = route.loader;
export const action = route.action;
