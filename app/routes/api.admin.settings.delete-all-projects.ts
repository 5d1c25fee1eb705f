import { deleteAllProjects } from "~/domain/admin/danger.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/administration";

const route = apiRoute(
  endpoint(c.deleteAllProjects, async ({ actor, body }) => ({ success: true as const, ...(await deleteAllProjects(actor, body.confirmName)) })),
);
export const loader = route.loader;
export const action = route.action;
