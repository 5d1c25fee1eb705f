import { trackerOAuthConnectRoute } from "~/http/api/tracker-oauth-route.server";

/** Starts connecting GitHub with OAuth (docs/trackers.md). */
const route = trackerOAuthConnectRoute("github");
export const loader = route.loader;
export const action = route.action;
