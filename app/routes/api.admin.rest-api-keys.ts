import { createApiKey, listApiKeys } from "~/domain/api-keys/api-keys.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/api-keys";

const route = apiRoute(
  endpoint(c.listApiKeys, async ({ actor }) => ({ apiKeys: await listApiKeys(actor) })),
  endpoint(c.createApiKey, async ({ actor, body }) => ({ apiKey: await createApiKey(actor, body) })),
);
export const loader = route.loader;
export const action = route.action;
