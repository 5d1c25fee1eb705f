import { trackerOAuthCallbackRoute } from "~/http/api/tracker-oauth-route.server";

/** Where Jira sends the browser back after the OAuth consent (docs/trackers.md). */
const route = trackerOAuthCallbackRoute("jira");
export const loader = route.loader;
export const action = route.action;
