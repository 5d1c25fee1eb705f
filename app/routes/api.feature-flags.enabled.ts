import { enabledFlags } from "~/domain/flags/store.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/flags-nps";

const route = apiRoute(endpoint(c.enabledFeatureFlags, async ({ actor }) => ({ flags: await enabledFlags(actor) })));
export const loader = route.loader;
export const action = route.action;
