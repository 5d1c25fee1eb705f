import { startGeneratePrd } from "~/domain/builder/generate.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/builder";
import { sseResponse } from "~/http/api/sse.server";

const route = apiRoute(endpoint(c.generatePrdStream, async ({ actor, body, request }) => sseResponse(request, await startGeneratePrd(actor, body))));
export const loader = route.loader;
export const action = route.action;
