import { checkProjectPrd } from "~/domain/prd/check.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/prd";

const route = apiRoute(
  endpoint(c.checkPrd, ({ actor, params }) => checkProjectPrd(actor, params.projectId)),
  endpoint(c.checkDraft, ({ actor, params, body }) => checkProjectPrd(actor, params.projectId, body.content)),
);
export const loader = route.loader;
export const action = route.action;
