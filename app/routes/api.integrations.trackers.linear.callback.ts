import { trackerOAuthCallbackRoute } from "~/http/api/tracker-oauth-route.server";

/** Where Linear sends the browser back after the OAuth consent (docs/trackers.md). */
const route = trackerOAuthCallbackRoute("linear");
export const loader = route.loader;
export const action = route.action;
