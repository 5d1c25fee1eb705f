import { listOwnSubmissions, submitTemplate } from "~/domain/templates/submissions.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/marketplace";

const route = apiRoute(
  endpoint(c.listSubmissions, async ({ actor }) => ({ submissions: await listOwnSubmissions(actor) })),
  endpoint(c.createSubmission, async ({ actor, body }) => ({ submission: await submitTemplate(actor, body) })),
);
export const loader = route.loader;
export const action = route.action;
