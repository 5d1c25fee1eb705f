// The duplicate "run now" path of the spec: deprecated in favour of …/trigger (docs/scheduled-exports.md).
import { triggerSchedule } from "~/domain/scheduled-exports/runs.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/scheduled-exports";
import { jsonResponse } from "~/http/api/respond.server";

const route = apiRoute(
  endpoint(c.runScheduledExport, async ({ actor, params, headers }) => {
    const result = await triggerSchedule(actor, params.exportId);
    // The successor link names this export (the contract's is the path template). A copy: the
    // wrapper writes the template into `headers` after this returns and adds only what is missing here.
    const own = new Headers(headers);
    own.set("Deprecation", "true");
    own.set("Link", `</api/scheduled-exports/${encodeURIComponent(params.exportId)}/trigger>; rel="successor-version"`);
    return jsonResponse(result, 202, own);
  }),
);
export const loader = route.loader;
export const action = route.action;
