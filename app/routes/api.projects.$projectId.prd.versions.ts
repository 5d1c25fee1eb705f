import { createVersion, listVersions } from "~/domain/prd/prd.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/prd";

const route = apiRoute(
  endpoint(c.listVersions, async ({ actor, params }) => ({ versions: await listVersions(actor, params.projectId) })),
  endpoint(c.createVersion, async ({ actor, params, body }) => ({ version: await createVersion(actor, params.projectId, body) })),
);
export const loader = route.loader;
export const action = route.action;
