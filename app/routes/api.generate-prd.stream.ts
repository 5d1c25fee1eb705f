import { startGeneratePrd } from "~/domain/builder/generate.server";
import { apiRoute, endpoint } from "~/http/api.server";
import * as c from "~/http/contracts/builder";
import { sseResponse } from "~/http/sse.server";

const route = apiRoute(
  endpoint(c.generatePrdStream, async ({ actor, body, request }) => sseResponse(request, await startGeneratePrd(actor, body))),
);
export const loader = route.loader;
export const action = route.action;
