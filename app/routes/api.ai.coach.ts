import { startCoach } from "~/domain/ai-tools/coach.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-tools";
import { sseResponse } from "~/http/api/sse.server";

const route = apiRoute(endpoint(c.coach, async ({ actor, body, request }) => sseResponse(request, await startCoach(actor, body))));
export const loader = route.loader;
export const action = route.action;
