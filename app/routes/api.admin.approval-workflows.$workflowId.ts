import { deleteWorkflow, updateWorkflow } from "~/domain/approvals/workflows.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/approvals";

const route = apiRoute(
  endpoint(c.updateWorkflow, async ({ actor, params, body }) => ({ workflow: await updateWorkflow(actor, params.workflowId, body) })),
  endpoint(c.deleteWorkflow, async ({ actor, params }) => {
    await deleteWorkflow(actor, params.workflowId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
