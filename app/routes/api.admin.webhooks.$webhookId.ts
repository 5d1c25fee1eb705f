import { deleteWebhook, getWebhook, updateWebhook } from "~/domain/webhooks/webhooks.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/webhooks";

const route = apiRoute(
  endpoint(c.getWebhook, async ({ actor, params }) => ({ webhook: await getWebhook(actor, params.webhookId) })),
  endpoint(c.updateWebhook, async ({ actor, params, body }) => ({
    webhook: await updateWebhook(actor, params.webhookId, body),
  })),
  endpoint(c.deleteWebhook, async ({ actor, params }) => {
    await deleteWebhook(actor, params.webhookId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
