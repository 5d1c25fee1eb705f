import { exportAuditLogs } from "~/domain/audit/query.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/admin";
import { downloadResponse } from "~/http/api/download.server";

const route = apiRoute(
  endpoint(c.exportAuditLogs, async ({ actor, query }) => {
    const { format, ...filters } = query;
    return downloadResponse(await exportAuditLogs(actor, filters, format));
  }),
);
export const loader = route.loader;
export const action = route.action;
