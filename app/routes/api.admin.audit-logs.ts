import { listAuditLogs, summarizeAuditLogs } from "~/domain/audit/query.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/admin";

const route = apiRoute(
  endpoint(c.listAuditLogs, async ({ actor, query }) => {
    const { summary, limit, offset, ...filters } = query;
    if (summary) return { summary: await summarizeAuditLogs(actor, filters) };
    return listAuditLogs(actor, filters, { limit, offset });
  }),
);
export const loader = route.loader;
export const action = route.action;
