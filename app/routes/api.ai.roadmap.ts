import { buildRoadmap } from "~/domain/ai-tools/roadmap.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-tools";

const route = apiRoute(endpoint(c.roadmap, ({ actor, body, request }) => buildRoadmap(actor, body, request.signal)));
export const loader = route.loader;
export const action = route.action;
