import { checkFlag, deleteFlag } from "~/domain/flags/store.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/flags-nps";

const route = apiRoute(
  endpoint(c.getFeatureFlag, async ({ actor, params }) => checkFlag(actor, params.flagKey)),
  endpoint(c.deleteFeatureFlag, async ({ actor, params }) => {
    await deleteFlag(actor, params.flagKey);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
