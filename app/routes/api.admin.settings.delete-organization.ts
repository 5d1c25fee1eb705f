import { deleteOrganization } from "~/domain/admin/danger.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/administration";

const route = apiRoute(
  endpoint(c.deleteOrganization, async ({ actor, body }) => {
    const { sessionsMoved, sessionsEnded } = await deleteOrganization(actor, body.confirmName);
    return { success: true as const, sessionsMoved, sessionsEnded };
  }),
);
export const loader = route.loader;
export const action = route.action;
