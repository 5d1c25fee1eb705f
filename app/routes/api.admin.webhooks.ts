import { createWebhook, listWebhooks } from "~/domain/webhooks/webhooks.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/webhooks";

const route = apiRoute(
  endpoint(c.listWebhooks, async ({ actor }) => ({ webhooks: await listWebhooks(actor) })),
  endpoint(c.createWebhook, async ({ actor, body }) => ({ webhook: await createWebhook(actor, body) })),
);
export const loader = route.loader;
export const action = route.action;
