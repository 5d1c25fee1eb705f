import { getDomain, removeDomain, setDomain } from "~/domain/domains/domains.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/branding";

const route = apiRoute(
  endpoint(c.getDomain, async ({ actor }) => ({ domain: await getDomain(actor) })),
  endpoint(c.setDomain, async ({ actor, body }) => ({ domain: await setDomain(actor, body) })),
  endpoint(c.removeDomain, async ({ actor }) => {
    await removeDomain(actor);
    return { success: true as const };
  }),
);
export const loader = route.loader;
export const action = route.action;
