import { setTrackerWebhookSecret } from "~/domain/trackers/connections.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/trackers";

const route = apiRoute(endpoint(c.setTrackerWebhookSecret, ({ actor, params, body }) => setTrackerWebhookSecret(actor, params.id, body)));
export const loader = route.loader;
export const action = route.action;
