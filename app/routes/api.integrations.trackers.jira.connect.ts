import { trackerOAuthConnectRoute } from "~/http/api/tracker-oauth-route.server";

/** Starts connecting Jira with OAuth (docs/trackers.md). */
const route = trackerOAuthConnectRoute("jira");
export const loader = route.loader;
export const action = route.action;
