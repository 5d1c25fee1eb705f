import { createFolder, listFolders } from "~/domain/files/folders.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/files";

const route = apiRoute(
  endpoint(c.listFolders, async ({ actor, params }) => ({ folders: await listFolders(actor, params.projectId) })),
  endpoint(c.createFolder, async ({ actor, params, body }) => ({ folder: await createFolder(actor, params.projectId, body) })),
);
export const loader = route.loader;
export const action = route.action;
