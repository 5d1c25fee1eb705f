import { addOrgKey, listOrgKeys } from "~/domain/ai-keys/ai-keys.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-keys";

const route = apiRoute(
  endpoint(c.listOrgKeys, async ({ actor }) => ({ apiKeys: await listOrgKeys(actor) })),
  endpoint(c.addOrgKey, async ({ actor, body }) => {
    const { connection, ...key } = await addOrgKey(actor, body);
    return { ...key, apiKey: key, ...(connection ? { connection } : {}) };
  }),
);
export const loader = route.loader;
export const action = route.action;
