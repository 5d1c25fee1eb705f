import { bulkExport } from "~/domain/exports/bulk.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/exports";
import { zipStreamResponse } from "~/http/export-download.server";

const route = apiRoute(endpoint(c.exportBulk, async ({ actor, body }) => zipStreamResponse(await bulkExport(actor, body))));
export const loader = route.loader;
export const action = route.action;
