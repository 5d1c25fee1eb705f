import { startProjectChat } from "~/domain/builder/conversation.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/builder";
import { sseResponse } from "~/http/api/sse.server";

const route = apiRoute(
  endpoint(c.conversationStream, async ({ actor, params, body, request }) => sseResponse(request, await startProjectChat(actor, params.projectId, body))),
);
export const loader = route.loader;
export const action = route.action;
