import { getConversation, resetConversation } from "~/domain/builder/conversation.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/builder";

const route = apiRoute(
  endpoint(c.getConversation, ({ actor, params }) => getConversation(actor, params.projectId)),
  endpoint(c.resetConversation, async ({ actor, params }) => {
    await resetConversation(actor, params.projectId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
