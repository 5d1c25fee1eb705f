import { trackerWebhookRoute } from "~/http/api/tracker-webhook-route.server";

/** Linear's issue events for one tracker connection (docs/trackers.md). */
const route = trackerWebhookRoute("linear");
export const loader = route.loader;
export const action = route.action;
