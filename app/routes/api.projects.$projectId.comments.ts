import { createComment, listComments } from "~/domain/collaboration/comments.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";

const route = apiRoute(
  endpoint(c.listComments, async ({ actor, params }) => ({ comments: await listComments(actor, params.projectId) })),
  endpoint(c.createComment, async ({ actor, params, body }) => ({
    ...(await createComment(actor, params.projectId, body)),
  })),
);
export const loader = route.loader;
export const action = route.action;
