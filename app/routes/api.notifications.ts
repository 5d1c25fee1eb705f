import { listNotifications } from "~/domain/notifications/notifications.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/notifications";

const route = apiRoute(endpoint(c.listNotifications, ({ actor, query }) => listNotifications(actor, query)));
export const loader = route.loader;
export const action = route.action;
