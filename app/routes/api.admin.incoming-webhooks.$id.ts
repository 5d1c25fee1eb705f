import { deleteIncomingWebhook, updateIncomingWebhook } from "~/domain/incoming/endpoints.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/incoming";

const route = apiRoute(
  endpoint(c.updateIncomingWebhook, async ({ actor, params, body, meta }) => ({
    incomingWebhook: await updateIncomingWebhook(actor, params.id, body, meta.appUrl),
  })),
  endpoint(c.deleteIncomingWebhook, async ({ actor, params }) => {
    await deleteIncomingWebhook(actor, params.id);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
