import { trackerWebhookRoute } from "~/http/api/tracker-webhook-route.server";

/** Jira's issue events for one tracker connection (docs/trackers.md). */
const route = trackerWebhookRoute("jira");
export const loader = route.loader;
export const action = route.action;
