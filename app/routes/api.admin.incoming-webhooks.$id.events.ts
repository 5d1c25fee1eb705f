import { listIncomingEvents } from "~/domain/incoming/endpoints.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/incoming";

const route = apiRoute(endpoint(c.listIncomingEvents, async ({ actor, params }) => ({ events: await listIncomingEvents(actor, params.id) })));
export const loader = route.loader;
export const action = route.action;
