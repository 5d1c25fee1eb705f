import { trackerOAuthConnectRoute } from "~/http/api/tracker-oauth-route.server";

/** Starts connecting Linear with OAuth (docs/trackers.md). */
const route = trackerOAuthConnectRoute("linear");
export const loader = route.loader;
export const action = route.action;
