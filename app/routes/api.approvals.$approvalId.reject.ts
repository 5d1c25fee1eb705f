import { decideApproval } from "~/domain/approvals/decisions.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/approvals";

const route = apiRoute(
  endpoint(c.reject, async ({ actor, params, body }) => ({ approval: await decideApproval(actor, params.approvalId, "reject", body.comment) })),
);
export const loader = route.loader;
export const action = route.action;
