import { verifyDomain } from "~/domain/domains/domains.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/branding";

const route = apiRoute(
  endpoint(c.verifyDomain, async ({ actor, headers }) => {
    const { result, rateHeaders } = await verifyDomain(actor);
    for (const [k, v] of Object.entries(rateHeaders)) headers.set(k, v);
    return result;
  }),
);
export const loader = route.loader;
export const action = route.action;
