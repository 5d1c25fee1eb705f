import { startCodeSpec } from "~/domain/ai-tools/writing.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-tools";
import { sseResponse } from "~/http/api/sse.server";

const route = apiRoute(endpoint(c.codeSpec, async ({ actor, body, request }) => sseResponse(request, await startCodeSpec(actor, body))));
export const loader = route.loader;
export const action = route.action;
