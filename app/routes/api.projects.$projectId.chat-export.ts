import { exportConversation } from "~/domain/builder/chat-export.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/builder";
import { downloadResponse } from "~/http/api/download.server";

const route = apiRoute(
  endpoint(c.chatExport, async ({ actor, params, query }) => downloadResponse(await exportConversation(actor, params.projectId, query.format))),
);
export const loader = route.loader;
export const action = route.action;
