import { createLink, listLinks } from "~/domain/collaboration/links.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";

const route = apiRoute(
  endpoint(c.listLinks, async ({ actor, params }) => ({ links: await listLinks(actor, params.projectId) })),
  endpoint(c.createLink, async ({ actor, params, body }) => ({ link: await createLink(actor, params.projectId, body) })),
);
export const loader = route.loader;
export const action = route.action;
