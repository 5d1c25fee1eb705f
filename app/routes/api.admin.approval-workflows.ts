import { createWorkflow, listWorkflows } from "~/domain/approvals/workflows.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/approvals";

const route = apiRoute(
  endpoint(c.listWorkflows, async ({ actor }) => ({ workflows: await listWorkflows(actor) })),
  endpoint(c.createWorkflow, async ({ actor, body }) => ({ workflow: await createWorkflow(actor, body) })),
);
export const loader = route.loader;
export const action = route.action;
