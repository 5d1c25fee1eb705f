import { npsStatus, submitNps } from "~/domain/feedback/nps.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/flags-nps";

const route = apiRoute(
  endpoint(c.getNps, async ({ actor }) => npsStatus(actor)),
  endpoint(c.postNps, async ({ actor, body }) => ({ response: await submitNps(actor, body) })),
);
export const loader = route.loader;
export const action = route.action;
