import { createIncomingWebhook, listIncomingWebhooks } from "~/domain/incoming/endpoints.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/incoming";

const route = apiRoute(
  endpoint(c.listIncomingWebhooks, async ({ actor }) => ({ incomingWebhooks: await listIncomingWebhooks(actor) })),
  endpoint(c.createIncomingWebhook, async ({ actor, body, meta }) => ({
    incomingWebhook: await createIncomingWebhook(actor, body, meta.appUrl),
  })),
);
export const loader = route.loader;
export const action = route.action;
