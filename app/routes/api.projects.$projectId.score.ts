import { getProjectScore, scoreProject } from "~/domain/ai-tools/score.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-tools";

const route = apiRoute(
  endpoint(c.getScore, ({ actor, params }) => getProjectScore(actor, params.projectId)),
  endpoint(c.scoreProject, ({ actor, params, body, request }) => scoreProject(actor, params.projectId, body, request.signal)),
);
export const loader = route.loader;
export const action = route.action;
