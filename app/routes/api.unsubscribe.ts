import { unsubscribe } from "~/domain/notifications/unsubscribe.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/notifications";

const route = apiRoute(endpoint(c.unsubscribe, async ({ body }) => ({ success: true, ...(await unsubscribe(body.token, body.category)) })));
export const loader = route.loader;
export const action = route.action;
