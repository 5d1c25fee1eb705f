import { deleteOrgKey } from "~/domain/ai-keys/ai-keys.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-keys";

const route = apiRoute(
  endpoint(c.deleteOrgKey, async ({ actor, params }) => {
    await deleteOrgKey(actor, params.keyId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
