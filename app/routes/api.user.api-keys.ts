import { addPersonalKey, listPersonalKeys } from "~/domain/ai-keys/ai-keys.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-keys";

const route = apiRoute(
  endpoint(c.listPersonalKeys, async ({ actor }) => ({ apiKeys: await listPersonalKeys(actor) })),
  endpoint(c.addPersonalKey, async ({ actor, body }) => {
    const { connection, ...key } = await addPersonalKey(actor, body);
    return { ...key, apiKey: key, ...(connection ? { connection } : {}) };
  }),
);
export const loader = route.loader;
export const action = route.action;
