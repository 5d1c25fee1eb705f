import { listDeliveries } from "~/domain/webhooks/webhooks.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/webhooks";

const route = apiRoute(
  endpoint(c.listWebhookDeliveries, async ({ actor, params }) => ({
    deliveries: await listDeliveries(actor, params.webhookId),
  })),
);
export const loader = route.loader;
export const action = route.action;
