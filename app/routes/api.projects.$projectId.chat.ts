import { projectChat } from "~/domain/builder/conversation.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/builder";

const route = apiRoute(endpoint(c.projectChat, ({ actor, params, body, request }) => projectChat(actor, params.projectId, body, request.signal)));
export const loader = route.loader;
export const action = route.action;
