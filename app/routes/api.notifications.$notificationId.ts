import { deleteNotification, setNotificationRead } from "~/domain/notifications/notifications.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/notifications";

const route = apiRoute(
  endpoint(c.updateNotification, async ({ actor, params, body }) => ({
    notification: await setNotificationRead(actor, params.notificationId, body.read),
  })),
  endpoint(c.deleteNotification, async ({ actor, params }) => {
    await deleteNotification(actor, params.notificationId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
