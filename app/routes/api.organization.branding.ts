import { getBranding, updateBranding } from "~/domain/branding/branding.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/branding";

const route = apiRoute(
  endpoint(c.getBranding, async ({ actor }) => ({ branding: await getBranding(actor) })),
  endpoint(c.updateBranding, async ({ actor, body }) => ({ branding: await updateBranding(actor, body) })),
);
export const loader = route.loader;
export const action = route.action;
