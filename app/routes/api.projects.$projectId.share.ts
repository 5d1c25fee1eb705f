import { enableShare, getShare, revokeShare } from "~/domain/collaboration/sharing.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";
import { jsonResponse } from "~/http/api/respond.server";

const route = apiRoute(
  endpoint(c.getShare, ({ actor, params, meta }) => getShare(actor, params.projectId, { appUrl: meta.appUrl })),
  endpoint(c.enableShare, async ({ actor, params, body, meta, headers }) => {
    const { share, created } = await enableShare(actor, params.projectId, body, { appUrl: meta.appUrl });
    return jsonResponse(share, created ? 201 : 200, headers);
  }),
  endpoint(c.revokeShare, async ({ actor, params }) => {
    await revokeShare(actor, params.projectId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
