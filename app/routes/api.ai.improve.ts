import { improvementTypes, startImprove } from "~/domain/ai-tools/improve.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-tools";
import { sseResponse } from "~/http/api/sse.server";

const route = apiRoute(
  endpoint(c.listImprovements, () => ({ improvementTypes: improvementTypes() })),
  endpoint(c.improve, async ({ actor, body, request }) => sseResponse(request, await startImprove(actor, body))),
);
export const loader = route.loader;
export const action = route.action;
