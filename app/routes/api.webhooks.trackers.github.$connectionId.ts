import { trackerWebhookRoute } from "~/http/api/tracker-webhook-route.server";

/** Github's issue events for one tracker connection (docs/trackers.md). */
const route = trackerWebhookRoute("github");
export const loader = route.loader;
export const action = route.action;
