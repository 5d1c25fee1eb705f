import { exportPrd } from "~/domain/exports/export.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/exports";
import { exportFileResponse } from "~/http/export-download.server";

const route = apiRoute(endpoint(c.exportPdf, async ({ actor, body }) => exportFileResponse(await exportPrd(actor, "pdf", body))));
export const loader = route.loader;
export const action = route.action;
