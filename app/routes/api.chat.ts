import { chat } from "~/domain/builder/chat.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/builder";

const route = apiRoute(endpoint(c.chat, ({ actor, body, request }) => chat(actor, body, request.signal)));
export const loader = route.loader;
export const action = route.action;
