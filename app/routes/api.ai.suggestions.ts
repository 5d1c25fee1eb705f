import { suggestImprovements } from "~/domain/ai-tools/suggestions.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-tools";

const route = apiRoute(endpoint(c.suggestions, ({ actor, body, request }) => suggestImprovements(actor, body, request.signal)));
export const loader = route.loader;
export const action = route.action;
