import { exportUserData } from "~/domain/users/data-export.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/user";
import { downloadResponse } from "~/http/api/download.server";

const route = apiRoute(endpoint(c.dataExport, async ({ actor }) => downloadResponse(await exportUserData(actor))));
export const loader = route.loader;
export const action = route.action;
