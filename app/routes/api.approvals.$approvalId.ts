import { getApproval } from "~/domain/approvals/decisions.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/approvals";

const route = apiRoute(endpoint(c.getApproval, async ({ actor, params }) => ({ approval: await getApproval(actor, params.approvalId) })));
export const loader = route.loader;
export const action = route.action;
