import { deleteSchedule, getSchedule, updateSchedule } from "~/domain/scheduled-exports/schedules.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/scheduled-exports";

const route = apiRoute(
  endpoint(c.getScheduledExport, async ({ actor, params }) => ({ schedule: await getSchedule(actor, params.exportId) })),
  endpoint(c.updateScheduledExport, async ({ actor, params, body }) => ({ schedule: await updateSchedule(actor, params.exportId, body) })),
  endpoint(c.deleteScheduledExport, async ({ actor, params }) => {
    await deleteSchedule(actor, params.exportId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
