import { receiveTrackerWebhook } from "~/domain/trackers/webhook.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import { readBodyText } from "~/http/api/body.server";
import * as c from "~/http/api/contracts/trackers";
import { jsonResponse } from "~/http/api/respond.server";

/** Jira's issue events for one tracker connection (docs/trackers.md). The raw body is what the signature covers. */
const route = apiRoute(
  endpoint(c.receiveJiraWebhook, async ({ params, request, headers }) => {
    const raw = await readBodyText(request, 2 * 1024 * 1024);
    const result = await receiveTrackerWebhook("jira", params.connectionId, raw, request.headers);
    return jsonResponse(result, result.updated ? 200 : 202, headers);
  }),
);
export const loader = route.loader;
export const action = route.action;
