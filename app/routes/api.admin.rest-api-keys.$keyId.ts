import { revokeApiKey } from "~/domain/api-keys/api-keys.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/api-keys";

const route = apiRoute(
  endpoint(c.revokeApiKey, async ({ actor, params }) => {
    await revokeApiKey(actor, params.keyId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
