import { listApprovals } from "~/domain/approvals/decisions.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/approvals";

const route = apiRoute(endpoint(c.listApprovals, async ({ actor, query }) => ({ approvals: await listApprovals(actor, query) })));
export const loader = route.loader;
export const action = route.action;
