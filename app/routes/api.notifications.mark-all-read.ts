import { markAllRead } from "~/domain/notifications/notifications.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/notifications";

const route = apiRoute(endpoint(c.markAllRead, async ({ actor }) => ({ success: true, ...(await markAllRead(actor)) })));
export const loader = route.loader;
export const action = route.action;
