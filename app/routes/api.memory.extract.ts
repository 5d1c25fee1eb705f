import { extractMemories } from "~/domain/memory/memory.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/memory";

const route = apiRoute(endpoint(c.extractMemories, ({ actor, body, request }) => extractMemories(actor, body, request.signal)));
export const loader = route.loader;
export const action = route.action;
