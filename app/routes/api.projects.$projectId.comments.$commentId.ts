import { deleteComment, updateComment } from "~/domain/collaboration/comments.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";

const route = apiRoute(
  endpoint(c.updateComment, async ({ actor, params, body }) => ({
    ...(await updateComment(actor, params.projectId, params.commentId, body)),
  })),
  endpoint(c.deleteComment, async ({ actor, params }) => {
    await deleteComment(actor, params.projectId, params.commentId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
