import { deletePersonalKey } from "~/domain/ai-keys/ai-keys.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-keys";

const route = apiRoute(
  endpoint(c.deletePersonalKey, async ({ actor, params }) => {
    await deletePersonalKey(actor, params.keyId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
