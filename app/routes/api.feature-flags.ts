import { listFlags, upsertFlag } from "~/domain/flags/store.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/flags-nps";
import { jsonResponse } from "~/http/api/respond.server";

const route = apiRoute(
  endpoint(c.listFeatureFlags, async ({ actor }) => ({ flags: await listFlags(actor) })),
  endpoint(c.upsertFeatureFlag, async ({ actor, body, headers }) => {
    const { flag, created } = await upsertFlag(actor, body);
    return jsonResponse({ flag }, created ? 201 : 200, headers);
  }),
);
export const loader = route.loader;
export const action = route.action;
