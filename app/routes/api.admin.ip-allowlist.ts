import { addAllowlistEntry, listAllowlist, removeAllowlistEntry } from "~/domain/allowlist/allowlist.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/admin";

const route = apiRoute(
  endpoint(c.listIpAllowlist, async ({ actor }) => ({ entries: await listAllowlist(actor), currentIp: actor.ip })),
  endpoint(c.addIpAllowlistEntry, async ({ actor, body }) => ({ entry: await addAllowlistEntry(actor, body) })),
  endpoint(c.deleteIpAllowlistEntry, async ({ actor, body }) => {
    await removeAllowlistEntry(actor, body.id);
    return { success: true as const };
  }),
);
export const loader = route.loader;
export const action = route.action;
