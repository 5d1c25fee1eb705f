import { deleteOutput } from "~/domain/ai-tools/outputs.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-tools";

const route = apiRoute(
  endpoint(c.deleteOutput, async ({ actor, params }) => {
    await deleteOutput(actor, params.projectId, params.outputId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
